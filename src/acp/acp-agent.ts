// The ACP agent app: one handler per protocol method, each a thin call into the sessions
// (acp-sessions.ts) and their agents, every failure turned into a JSON-RPC error with one
// line (protocol-error.ts) so that no request can crash the process. The editor's MCP servers
// go to the session they open (acp-sessions.ts, mcp-servers.ts). Built by serve.ts.
import * as acp from "@agentclientprotocol/sdk";
import { VERSION } from "../version.ts";
import type { AcpSession } from "./acp-session.ts";
import type { AcpOptions } from "./acp-sessions.ts";
import { AcpSessions } from "./acp-sessions.ts";
import { protocolError } from "./protocol-error.ts";
import { authMethods } from "./provider-key.ts";

/** The agent app and the sessions it holds (closed by serve.ts when the client goes away). */
export function createAcpAgent(options: AcpOptions): { app: acp.AgentApp; sessions: AcpSessions } {
  const sessions = new AcpSessions(options);
  const { methods } = acp;
  const app = acp
    .agent({ name: "codewhale" })
    .onRequest(methods.agent.initialize, ({ params }) => {
      sessions.initialize(params.clientCapabilities);
      return {
        protocolVersion: acp.PROTOCOL_VERSION,
        agentCapabilities: {
          loadSession: true,
          promptCapabilities: { image: true, audio: false, embeddedContext: true },
          sessionCapabilities: { list: {}, resume: {}, close: {} },
        },
        agentInfo: { name: "codewhale", title: "codewhale", version: VERSION },
        authMethods: authMethods(),
      };
    })
    .onRequest(methods.agent.authenticate, ({ params }) =>
      guarded(async () => {
        sessions.authenticate(params.methodId);
        return {};
      }),
    )
    .onRequest(methods.agent.session.new, ({ params, client }) =>
      guarded(async () => {
        const session = await sessions.start(
          client,
          params.cwd,
          { kind: "new" },
          params.mcpServers,
        );
        return { sessionId: session.id, ...opened(session) };
      }),
    )
    .onRequest(methods.agent.session.load, ({ params, client }) =>
      guarded(async () => {
        const { sessionId, cwd } = params;
        const opening = { kind: "load", sessionId } as const;
        const session = await sessions.start(client, cwd, opening, params.mcpServers);
        // The replay comes before the answer, as the protocol has it.
        await session.flushed();
        return opened(session);
      }),
    )
    .onRequest(methods.agent.session.resume, ({ params, client }) =>
      guarded(async () => {
        const { sessionId, cwd } = params;
        const opening = { kind: "resume", sessionId } as const;
        const session = await sessions.start(client, cwd, opening, params.mcpServers);
        return opened(session);
      }),
    )
    .onRequest(methods.agent.session.list, ({ params }) =>
      guarded(async () => sessions.list(params.cwd, params.cursor)),
    )
    .onRequest(methods.agent.session.close, ({ params }) =>
      guarded(async () => {
        await sessions.close(params.sessionId);
        return {};
      }),
    )
    .onRequest(methods.agent.session.setMode, ({ params }) =>
      guarded(async () => {
        sessions.get(params.sessionId).setMode(params.modeId);
        return {};
      }),
    )
    .onRequest(methods.agent.session.setConfigOption, ({ params }) =>
      guarded(async () => {
        const session = sessions.get(params.sessionId);
        return { configOptions: await session.setConfigOption(params.configId, params.value) };
      }),
    )
    .onRequest(methods.agent.session.prompt, ({ params }) =>
      guarded(() => sessions.get(params.sessionId).prompt(params.prompt)),
    )
    .onNotification(methods.agent.session.cancel, ({ params }) => {
      try {
        sessions.get(params.sessionId).cancel();
      } catch {
        // A cancel for a session that is not open has nothing to stop.
      }
    });
  return { app, sessions };
}

/** What opening a session answers besides its id: the modes and the config options. */
function opened(session: AcpSession) {
  return { modes: session.modes, configOptions: session.configOptions };
}

/** Runs a handler, turning any failure into a protocol error with one line. */
async function guarded<T>(handler: () => Promise<T>): Promise<T> {
  try {
    return await handler();
  } catch (error) {
    throw protocolError(error);
  }
}

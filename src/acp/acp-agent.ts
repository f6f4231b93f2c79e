// The ACP agent app: one handler per protocol method, each a thin call into the sessions
// (acp-sessions.ts) and their agents, every failure turned into a JSON-RPC error with one
// line (protocol-error.ts) so that no request can crash the process. Built by serve.ts.
import * as acp from "@agentclientprotocol/sdk";
import { VERSION } from "../version.ts";
import type { AcpOptions } from "./acp-sessions.ts";
import { AcpSessions } from "./acp-sessions.ts";
import { protocolError } from "./protocol-error.ts";

/** The agent app and the sessions it holds (closed by serve.ts when the client goes away). */
export function createAcpAgent(options: AcpOptions): { app: acp.AgentApp; sessions: AcpSessions } {
  const sessions = new AcpSessions(options);
  const { methods } = acp;
  const noMcp = (servers: readonly unknown[] | undefined) => {
    if (servers && servers.length > 0) {
      options.diagnostic(
        `the editor's MCP servers are not supported yet: ${servers.length} not connected`,
      );
    }
  };
  const app = acp
    .agent({ name: "codewhale" })
    .onRequest(methods.agent.initialize, () => ({
      protocolVersion: acp.PROTOCOL_VERSION,
      agentCapabilities: {
        loadSession: true,
        promptCapabilities: { image: false, audio: false, embeddedContext: true },
        sessionCapabilities: { list: {}, resume: {}, close: {} },
      },
      agentInfo: { name: "codewhale", title: "codewhale", version: VERSION },
      authMethods: [
        {
          id: "provider-key",
          name: "Provider API key",
          description:
            "Set the API key variable of your model's provider (ANTHROPIC_API_KEY, OPENAI_API_KEY or the provider's api_key_env) in the environment codewhale starts with.",
        },
      ],
    }))
    .onRequest(methods.agent.authenticate, () => {
      throw acp.RequestError.authRequired(
        undefined,
        "codewhale reads provider keys from its environment: set the variable and restart the agent",
      );
    })
    .onRequest(methods.agent.session.new, ({ params, client }) =>
      guarded(async () => {
        noMcp(params.mcpServers);
        const session = await sessions.start(client, params.cwd, { kind: "new" });
        return { sessionId: session.id, modes: session.modes };
      }),
    )
    .onRequest(methods.agent.session.load, ({ params, client }) =>
      guarded(async () => {
        const { sessionId, cwd } = params;
        noMcp(params.mcpServers);
        const session = await sessions.start(client, cwd, { kind: "load", sessionId });
        return { modes: session.modes };
      }),
    )
    .onRequest(methods.agent.session.resume, ({ params, client }) =>
      guarded(async () => {
        const { sessionId, cwd } = params;
        noMcp(params.mcpServers);
        const session = await sessions.start(client, cwd, { kind: "resume", sessionId });
        return { modes: session.modes };
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

/** Runs a handler, turning any failure into a protocol error with one line. */
async function guarded<T>(handler: () => Promise<T>): Promise<T> {
  try {
    return await handler();
  } catch (error) {
    throw protocolError(error);
  }
}

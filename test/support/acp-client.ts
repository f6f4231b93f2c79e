// A real ACP client for tests: spawns the built `codewhale acp` (bin/codewhale.cjs → dist/) as
// a child process against the loopback mock provider and talks to it over stdio with the
// official SDK's client. Records every `session/update` and every message in arrival order,
// answers permission requests with a test's chosen option, and keeps stdout's raw lines. As an
// editor would, it serves fs/* from its buffers (`buffers`, else the disk) and terminal/* by
// running the command itself, in its own environment (the test's, provider key included)
// overlaid with the one the agent sends.
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Readable, Writable } from "node:stream";
import { after, before } from "node:test";
import * as acp from "@agentclientprotocol/sdk";
import type { SessionEvent } from "../../src/session/events.ts";
import { sessionPath } from "../../src/session/paths.ts";
import { readSession } from "../../src/session/reader.ts";
import { bundleEntry } from "./bundle-child.ts";
import { cliPath } from "./cli.ts";
import { type ExecEnv, execEnv } from "./exec-harness.ts";
import type { MockProvider } from "./mock-provider/index.ts";

/** What the client saw, in order: updates and permission requests. */
export type Seen =
  | { kind: "update"; sessionId: string; update: acp.SessionUpdate }
  | { kind: "permission"; request: acp.RequestPermissionRequest }
  | { kind: "fs"; method: string; path: string; content?: string }
  | { kind: "terminal"; method: string; terminalId: string; request?: acp.CreateTerminalRequest };

export type PermissionAnswer = (
  request: acp.RequestPermissionRequest,
) => acp.RequestPermissionOutcome | Promise<acp.RequestPermissionOutcome>;

export interface AcpClient {
  child: ChildProcess;
  agent: acp.ClientContext;
  seen: Seen[];
  /** The updates of one session, in order. */
  updates(sessionId: string): acp.SessionUpdate[];
  /** How the next permission requests are answered (default: the first option). */
  answer: PermissionAnswer;
  /** The editor's open buffers by absolute path: fs/read_text_file reads them before the disk;
   * fs/write_text_file writes them (never the disk). */
  buffers: Map<string, string>;
  /** The terminals the agent created, by id: their process and output so far. */
  terminals: Map<string, EditorTerminal>;
  stderr(): string;
  /** Every raw line the agent wrote to stdout. */
  stdoutLines(): string[];
  initialize(capabilities?: acp.ClientCapabilities): Promise<acp.InitializeResponse>;
  /**
   * Sends a prompt and answers its response once every update the agent wrote before it has
   * reached `seen` (the SDK hands notifications to the handler asynchronously).
   */
  prompt(sessionId: string, text: string): Promise<acp.PromptResponse>;
  /** Waits until every `session/update` on stdout so far is in `seen`. */
  settled(): Promise<void>;
  newSession(cwd: string): Promise<string>;
  /** Ends stdin and waits for the process to exit. */
  close(): Promise<number | null>;
  exited: Promise<number | null>;
}

/** acp-tools-cli.ts: `codewhale acp` with the test tools, bundled once (bundle-child.ts). */
const toolsCli = () => [bundleEntry(new URL("./acp-tools-cli.ts", import.meta.url))];

export function spawnAcp(
  setup: ExecEnv,
  args: string[] = [],
  options: { testTools?: boolean } = {},
): AcpClient {
  const entry = options.testTools ? toolsCli() : [cliPath];
  const child = spawn(process.execPath, [...entry, "acp", ...args], {
    cwd: setup.workspace,
    env: setup.env,
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (data) => {
    stderr += String(data);
  });
  let raw = "";
  const stdout = child.stdout!;
  const tee = new Readable({ read() {} });
  stdout.on("data", (data: Buffer) => {
    raw += data.toString("utf8");
    tee.push(data);
  });
  stdout.on("end", () => tee.push(null));
  const exited = new Promise<number | null>((resolve) =>
    child.on("close", (code) => resolve(code)),
  );
  const seen: Seen[] = [];
  const client: AcpClient = {
    child,
    agent: undefined as unknown as acp.ClientContext,
    seen,
    updates: (sessionId) =>
      seen.flatMap((item) =>
        item.kind === "update" && item.sessionId === sessionId ? [item.update] : [],
      ),
    answer: (request) => ({ outcome: "selected", optionId: request.options[0]!.optionId }),
    buffers: new Map(),
    terminals: new Map(),
    stderr: () => stderr,
    stdoutLines: () => raw.split("\n").filter((line) => line !== ""),
    initialize: (clientCapabilities = {}) =>
      client.agent.request(acp.methods.agent.initialize, {
        protocolVersion: acp.PROTOCOL_VERSION,
        clientCapabilities,
      }),
    prompt: async (sessionId, text) => {
      const response = await client.agent.request(acp.methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: "text", text }],
      });
      await client.settled();
      return response;
    },
    settled: async () => {
      const written = raw.split('"method":"session/update"').length - 1;
      const deadline = Date.now() + 5000;
      while (seen.filter((item) => item.kind === "update").length < written) {
        if (Date.now() > deadline) throw new Error("session/update notifications went missing");
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    },
    newSession: async (cwd) =>
      (await client.agent.request(acp.methods.agent.session.new, { cwd, mcpServers: [] }))
        .sessionId,
    close: async () => {
      child.stdin?.end();
      return exited;
    },
    exited,
  };
  const terminal = (terminalId: string): EditorTerminal => {
    const found = client.terminals.get(terminalId);
    if (!found) throw acp.RequestError.resourceNotFound(terminalId);
    return found;
  };
  const app = acp
    .client({ name: "codewhale-tests" })
    .onRequest(acp.methods.client.fs.readTextFile, ({ params }) => {
      seen.push({ kind: "fs", method: "read", path: params.path });
      const buffer = client.buffers.get(params.path);
      return { content: buffer ?? readFileSync(params.path, "utf8") };
    })
    .onRequest(acp.methods.client.fs.writeTextFile, ({ params }) => {
      seen.push({ kind: "fs", method: "write", path: params.path, content: params.content });
      client.buffers.set(params.path, params.content);
      return {};
    })
    .onRequest(acp.methods.client.terminal.create, ({ params }) => {
      const created = editorTerminal(params, setup.env);
      client.terminals.set(created.id, created);
      seen.push({ kind: "terminal", method: "create", terminalId: created.id, request: params });
      return { terminalId: created.id };
    })
    .onRequest(acp.methods.client.terminal.output, ({ params }) => {
      seen.push({ kind: "terminal", method: "output", terminalId: params.terminalId });
      return terminal(params.terminalId).output();
    })
    .onRequest(acp.methods.client.terminal.waitForExit, async ({ params }) => {
      seen.push({ kind: "terminal", method: "wait_for_exit", terminalId: params.terminalId });
      return terminal(params.terminalId).exited;
    })
    .onRequest(acp.methods.client.terminal.kill, ({ params }) => {
      seen.push({ kind: "terminal", method: "kill", terminalId: params.terminalId });
      terminal(params.terminalId).kill();
      return {};
    })
    .onRequest(acp.methods.client.terminal.release, ({ params }) => {
      seen.push({ kind: "terminal", method: "release", terminalId: params.terminalId });
      terminal(params.terminalId).kill();
      client.terminals.delete(params.terminalId);
      return {};
    })
    .onNotification(acp.methods.client.session.update, ({ params }) => {
      seen.push({ kind: "update", sessionId: params.sessionId, update: params.update });
    })
    .onRequest(acp.methods.client.session.requestPermission, async ({ params }) => {
      seen.push({ kind: "permission", request: params });
      return { outcome: await client.answer(params) };
    });
  const stream = acp.ndJsonStream(
    Writable.toWeb(child.stdin!) as WritableStream<Uint8Array>,
    Readable.toWeb(tee) as ReadableStream<Uint8Array>,
  );
  client.agent = app.connect(stream).agent;
  return client;
}

/** A command an editor runs for the agent: its output (the newest `outputByteLimit` bytes). */
export interface EditorTerminal {
  id: string;
  child: ChildProcess;
  exited: Promise<{ exitCode: number | null; signal: string | null }>;
  output(): { output: string; truncated: boolean; exitStatus?: acp.TerminalExitStatus };
  kill(): void;
}

let terminalCount = 0;

function editorTerminal(request: acp.CreateTerminalRequest, editorEnv: NodeJS.ProcessEnv) {
  const env = { ...editorEnv };
  for (const { name, value } of request.env ?? []) env[name] = value;
  const child = spawn(request.command, request.args ?? [], {
    cwd: request.cwd ?? undefined,
    env,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let text = "";
  let truncated = false;
  const limit = request.outputByteLimit ?? Number.POSITIVE_INFINITY;
  const add = (data: Buffer) => {
    text += data.toString("utf8");
    if (Buffer.byteLength(text) > limit) {
      text = Buffer.from(text).subarray(-limit).toString("utf8");
      truncated = true;
    }
  };
  child.stdout?.on("data", add);
  child.stderr?.on("data", add);
  let status: { exitCode: number | null; signal: string | null } | undefined;
  const exited = new Promise<{ exitCode: number | null; signal: string | null }>((resolve) =>
    child.on("close", (exitCode, signal) => {
      status = { exitCode, signal };
      resolve(status);
    }),
  );
  terminalCount += 1;
  return {
    id: `term-${terminalCount}`,
    child,
    exited,
    output: () => ({ output: text, truncated, ...(status ? { exitStatus: status } : {}) }),
    kill: () => {
      if (status || child.pid === undefined) return;
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        // Already gone.
      }
    },
  };
}

/** The text of the message (or thought) chunks among `updates`. */
export function chunkText(
  updates: readonly acp.SessionUpdate[],
  kind: "agent_message_chunk" | "agent_thought_chunk" | "user_message_chunk",
): string {
  return updates
    .map((update) =>
      update.sessionUpdate === kind && update.content.type === "text" ? update.content.text : "",
    )
    .join("");
}

/**
 * The updates as an editor ends up showing them: a call shown while the model wrote it (its
 * `tool_call`, then `tool_call_update`s without a status: its streaming input, then the whole
 * call) folded into one `tool_call` where its whole call came, as a replayed session
 * (`session/load`) sends it. A call's updates once it has a status stay as they are.
 */
export function asShown(updates: readonly acp.SessionUpdate[]): acp.SessionUpdate[] {
  const out: Array<acp.SessionUpdate | undefined> = [];
  const pending = new Map<string, number>();
  for (const update of updates) {
    if (update.sessionUpdate === "tool_call") pending.set(update.toolCallId, out.length);
    else if (update.sessionUpdate === "tool_call_update") {
      const at = pending.get(update.toolCallId);
      const call = at === undefined ? undefined : out[at];
      if (update.status == null && at !== undefined && call?.sessionUpdate === "tool_call") {
        const { sessionUpdate: _, ...fields } = update;
        out[at] = undefined;
        pending.set(update.toolCallId, out.length);
        out.push({ ...call, ...fields } as acp.SessionUpdate);
        continue;
      }
      pending.delete(update.toolCallId);
    }
    out.push(update);
  }
  return out.filter((update) => update !== undefined);
}

/** The commands the bridge announced so far (every `available_commands_update`). */
export function offeredCommands(client: AcpClient, sessionId: string): acp.AvailableCommand[] {
  return client
    .updates(sessionId)
    .flatMap((u) => (u.sessionUpdate === "available_commands_update" ? u.availableCommands : []));
}

/** The events of a session's log in the test's home. */
export function logOf(setup: ExecEnv, sessionId: string): SessionEvent[] {
  return readSession(sessionPath(join(setup.home, "sessions"), sessionId)).events;
}

/** One `codewhale acp` process for the tests of a describe block. */
export interface SharedAcp {
  readonly client: AcpClient;
  readonly setup: ExecEnv;
  readonly init: acp.InitializeResponse;
}

/**
 * Starts one initialized `codewhale acp` before the block's tests and closes it after them
 * (checking it exits 0); each test opens its own sessions, which the agent keeps apart.
 */
export function useAcp(
  mock: MockProvider,
  args: string[],
  extraToml = "",
  capabilities: acp.ClientCapabilities = {},
): SharedAcp {
  let shared: { client: AcpClient; setup: ExecEnv; init: acp.InitializeResponse } | undefined;
  const get = () => {
    if (!shared) throw new Error("the shared acp process is used outside its tests");
    return shared;
  };
  before(async () => {
    const setup = execEnv(mock, extraToml);
    const client = spawnAcp(setup, args);
    shared = { client, setup, init: await client.initialize(capabilities) };
  });
  after(async () => {
    const { client } = get();
    assert.equal(await client.close(), 0, client.stderr());
  });
  return {
    get client() {
      return get().client;
    },
    get setup() {
      return get().setup;
    },
    get init() {
      return get().init;
    },
  };
}

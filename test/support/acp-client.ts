// A real ACP client for tests: spawns the built `codewhale acp` (bin/codewhale.js → dist/) as
// a child process against the loopback mock provider and talks to it over stdio with the
// official SDK's client. Records every `session/update` and every message in arrival order,
// answers permission requests with a test's chosen option, and keeps stdout's raw lines.
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import { Readable, Writable } from "node:stream";
import { after, before } from "node:test";
import * as acp from "@agentclientprotocol/sdk";
import type { SessionEvent } from "../../src/session/events.ts";
import { sessionPath } from "../../src/session/paths.ts";
import { readSession } from "../../src/session/reader.ts";
import { cliPath } from "./cli.ts";
import { type ExecEnv, execEnv } from "./exec-harness.ts";
import type { MockProvider } from "./mock-provider/index.ts";

/** What the client saw, in order: updates and permission requests. */
export type Seen =
  | { kind: "update"; sessionId: string; update: acp.SessionUpdate }
  | { kind: "permission"; request: acp.RequestPermissionRequest };

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
  stderr(): string;
  /** Every raw line the agent wrote to stdout. */
  stdoutLines(): string[];
  initialize(capabilities?: acp.ClientCapabilities): Promise<acp.InitializeResponse>;
  newSession(cwd: string): Promise<string>;
  /** Ends stdin and waits for the process to exit. */
  close(): Promise<number | null>;
  exited: Promise<number | null>;
}

export function spawnAcp(setup: ExecEnv, args: string[] = []): AcpClient {
  const child = spawn(process.execPath, [cliPath, "acp", ...args], {
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
    stderr: () => stderr,
    stdoutLines: () => raw.split("\n").filter((line) => line !== ""),
    initialize: (clientCapabilities = {}) =>
      client.agent.request(acp.methods.agent.initialize, {
        protocolVersion: acp.PROTOCOL_VERSION,
        clientCapabilities,
      }),
    newSession: async (cwd) =>
      (await client.agent.request(acp.methods.agent.session.new, { cwd, mcpServers: [] }))
        .sessionId,
    close: async () => {
      child.stdin?.end();
      return exited;
    },
    exited,
  };
  const app = acp
    .client({ name: "codewhale-tests" })
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
export function useAcp(mock: MockProvider, args: string[], extraToml = ""): SharedAcp {
  let shared: { client: AcpClient; setup: ExecEnv; init: acp.InitializeResponse } | undefined;
  const get = () => {
    if (!shared) throw new Error("the shared acp process is used outside its tests");
    return shared;
  };
  before(async () => {
    const setup = execEnv(mock, extraToml);
    const client = spawnAcp(setup, args);
    shared = { client, setup, init: await client.initialize() };
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

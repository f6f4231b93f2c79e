// `codewhale acp` under bad input and bad timing: malformed JSON-RPC, batches, unknown methods,
// requests before initialize, unknown sessions and bad params get protocol errors and the
// process goes on (stdout carries JSON-RPC only, stderr no stack trace); a second process
// loading a session that one holds gets an error naming the lock; a client that disconnects
// mid-turn (streaming, or with bash in its terminal) cancels the turn, and the log it leaves is
// complete and signed (`sessions verify`); a prompt sent while one runs is queued behind it.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import * as acp from "@agentclientprotocol/sdk";
import { chunkText, logOf, spawnAcp } from "../support/acp-client.ts";
import { runCli } from "../support/cli.ts";
import { execEnv, fakeKey, MODEL_OF, spawnCli, waitFor } from "../support/exec-harness.ts";
import { useMockProvider } from "../support/mock-provider/index.ts";

const mock = useMockProvider();
const MODEL = ["--model", MODEL_OF.anthropic];

interface Reply {
  id?: number | null;
  result?: unknown;
  error?: { code: number; message: string };
}

describe("codewhale acp: robustness", () => {
  it("malformed messages, unknown methods and sessions get protocol errors; the process goes on", async () => {
    const setup = execEnv(mock);
    const agent = spawnCli(["acp", ...MODEL], setup);
    const stdin = agent.child.stdin!;
    const replies = (): Reply[] =>
      agent
        .stdout()
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Reply);
    const reply = async (id: number): Promise<Reply> => {
      await waitFor(() => replies().some((r) => r.id === id));
      return replies().find((r) => r.id === id)!;
    };
    const send = (message: unknown) =>
      stdin.write(`${typeof message === "string" ? message : JSON.stringify(message)}\n`);
    const request = (id: number, method: string, params: unknown) =>
      send({ jsonrpc: "2.0", id, method, params });
    const secret = fakeKey("openai");
    try {
      request(1, "session/new", { cwd: setup.workspace, mcpServers: [] });
      assert.equal((await reply(1)).error?.code, -32600, "before initialize");
      request(2, "initialize", { protocolVersion: 1 });
      assert.equal((await reply(2)).error, undefined);
      send("{ not json");
      send([{ jsonrpc: "2.0", id: 3, method: "initialize", params: { protocolVersion: 1 } }]);
      request(4, "session/frobnicate", {});
      request(5, "session/prompt", { sessionId: "nope", prompt: [{ type: "text", text: "x" }] });
      request(6, "session/new", { cwd: "relative/dir", mcpServers: [] });
      request(7, "session/new", { cwd: "/definitely/not/here", mcpServers: [] });
      request(8, "session/prompt", { sessionId: 42 });
      send({ jsonrpc: "2.0", method: "session/cancel", params: { sessionId: "nope" } });
      assert.equal((await reply(4)).error?.code, -32601);
      assert.equal((await reply(5)).error?.code, -32002);
      assert.equal((await reply(6)).error?.code, -32602);
      assert.equal((await reply(7)).error?.code, -32602);
      assert.equal((await reply(8)).error?.code, -32602);
      const errors = replies().filter((r) => r.id === null);
      assert.deepEqual(
        errors.map((r) => r.error?.code).sort(),
        [-32600, -32700],
        "a parse error and a batch refused",
      );
      const server = {
        name: "db",
        command: "mcp-db",
        args: [],
        env: [{ name: "T", value: secret }],
      };
      request(9, "session/new", { cwd: setup.workspace, mcpServers: [server] });
      assert.match(JSON.stringify((await reply(9)).result), /"sessionId"/);
    } finally {
      stdin.end();
    }
    const { status, stdout, stderr } = await agent.done;
    assert.equal(status, 0);
    assert.match(stderr, /MCP server "db" did not start/, "the editor's server is tried, one line");
    assert.ok(!stderr.includes(secret) && !stdout.includes(secret));
    assert.doesNotMatch(stderr, /\n\s+at /, "no stack trace");
  });

  it("a second process cannot load a session the first holds open: one line names the lock", async () => {
    const setup = execEnv(mock);
    const holder = spawnAcp(setup, MODEL);
    const other = spawnAcp(setup, MODEL);
    try {
      await holder.initialize();
      const sessionId = await holder.newSession(setup.workspace);
      await other.initialize();
      const load = () =>
        other.agent.request(acp.methods.agent.session.load, {
          sessionId,
          cwd: setup.workspace,
          mcpServers: [],
        });
      // Before its first prompt a session has no log (docs/session-format.md): not found.
      await assert.rejects(load(), (error: acp.RequestError) => {
        assert.equal(error.code, -32002);
        assert.deepEqual(error.data, { sessionId });
        assert.doesNotMatch(error.message, /\n/);
        return true;
      });
      mock.enqueue({ blocks: [{ kind: "text", text: "ok" }] });
      assert.equal((await holder.prompt(sessionId, "hello")).stopReason, "end_turn");
      // Once it has one, the lock held open refuses the load.
      await assert.rejects(load(), (error: acp.RequestError) => {
        assert.equal(error.code, -32603);
        assert.match(error.message, /is open in process \d+/);
        assert.doesNotMatch(error.message, /\n/);
        return true;
      });
    } finally {
      await Promise.all([holder.close(), other.close()]);
    }
  });

  it("a client that disconnects mid-turn cancels the turn; the log ends complete and signed", async () => {
    const setup = execEnv(mock);
    mock.enqueue({ blocks: [{ kind: "text", text: "y".repeat(600) }], chunkSize: 3, delayMs: 20 });
    const client = spawnAcp(setup, MODEL);
    await client.initialize();
    const sessionId = await client.newSession(setup.workspace);
    void client.agent
      .request(acp.methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: "text", text: "long answer" }],
      })
      .catch(() => undefined);
    await waitFor(() => chunkText(client.updates(sessionId), "agent_message_chunk").length > 0);
    assert.equal(await client.close(), 0, client.stderr());
    const events = logOf(setup, sessionId);
    const end = events.findLast((event) => event.type === "turn/end");
    assert.equal(end?.type === "turn/end" && end.reason, "cancelled");
    assert.equal(events.at(-1)?.type, "session/checkpoint");
    const verified = runCli(["sessions", "verify", sessionId], { env: setup.env });
    assert.equal(verified.status, 0, verified.stdout + verified.stderr);
  });

  it("a client that disconnects while bash runs in its terminal: the turn ends, the log is complete and signed", async () => {
    const setup = execEnv(mock);
    mock.enqueue({
      blocks: [{ kind: "tool", id: "toolu_1", name: "bash", input: { command: "sleep 30" } }],
    });
    const client = spawnAcp(setup, MODEL);
    await client.initialize({ terminal: true });
    client.answer = () => ({ outcome: "selected", optionId: "allow_once" });
    const sessionId = await client.newSession(setup.workspace);
    void client.prompt(sessionId, "wait").catch(() => undefined);
    await waitFor(() => client.terminals.size > 0);
    try {
      assert.equal(await client.close(), 0, client.stderr());
    } finally {
      for (const terminal of client.terminals.values()) terminal.kill();
    }
    const events = logOf(setup, sessionId);
    const result = events.find((event) => event.type === "tool/result");
    assert.ok(result?.type === "tool/result" && result.is_error, "the call ended failed");
    assert.equal(events.at(-1)?.type, "session/checkpoint");
    const verified = runCli(["sessions", "verify", sessionId], { env: setup.env });
    assert.equal(verified.status, 0, verified.stdout + verified.stderr);
  });

  it("a prompt sent while one runs is queued: both answer end_turn, in order, each with its own text", async () => {
    const setup = execEnv(mock);
    mock.enqueue({
      blocks: [{ kind: "text", text: "first ".repeat(40) }],
      chunkSize: 6,
      delayMs: 5,
    });
    mock.enqueue({ blocks: [{ kind: "text", text: "second" }] });
    const client = spawnAcp(setup, MODEL);
    try {
      await client.initialize();
      const sessionId = await client.newSession(setup.workspace);
      const ended: string[] = [];
      const first = client.prompt(sessionId, "one").then((r) => ended.push(`one:${r.stopReason}`));
      await waitFor(() => chunkText(client.updates(sessionId), "agent_message_chunk").length > 0);
      const second = client.prompt(sessionId, "two").then((r) => ended.push(`two:${r.stopReason}`));
      await Promise.all([first, second]);
      assert.deepEqual(ended, ["one:end_turn", "two:end_turn"]);
      assert.equal(
        chunkText(client.updates(sessionId), "agent_message_chunk"),
        `${"first ".repeat(40)}second`,
      );
      const prompts = logOf(setup, sessionId).flatMap((e) =>
        e.type === "user/message" ? [e.text] : [],
      );
      assert.deepEqual(prompts, ["one", "two"]);
    } finally {
      assert.equal(await client.close(), 0, client.stderr());
    }
  });
});

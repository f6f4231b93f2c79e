// Tool calls through `codewhale acp` with a real ACP client: each call is shown as `tool_call`
// (kind, title, rawInput, absolute locations) before any permission request for it; the ask
// becomes `session/request_permission` whose answer decides (allow runs it, reject does not,
// and the log records the user's decision); results come as `tool_call_update` with the
// policy-processed content and a diff for edits; a running call's progress shows in its
// updates; the todo list is a plan; cancel during a permission request ends the prompt
// cancelled.
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import * as acp from "@agentclientprotocol/sdk";
import {
  type AcpClient,
  asShown,
  logOf,
  type SharedAcp,
  spawnAcp,
  useAcp,
} from "../support/acp-client.ts";
import { execEnv, fakeKey, MODEL_OF, waitFor } from "../support/exec-harness.ts";
import { useMockProvider } from "../support/mock-provider/index.ts";

const mock = useMockProvider();
const MODEL = ["--model", MODEL_OF.anthropic];

/** A fresh call id each time: a session's tool_use ids are unique, as the mock checks. */
let calls = 0;
const nextCallId = () => `toolu_${++calls}`;

/** One reply calling `name` with `input`, then a closing text reply. */
function callThenAnswer(name: string, input: Record<string, unknown>): void {
  mock.enqueue({ blocks: [{ kind: "tool", id: nextCallId(), name, input }] });
  mock.enqueue({ blocks: [{ kind: "text", text: "done" }] });
}

/** One `codewhale acp` for the file; each test opens its own session in its own workspace. */
let shared: SharedAcp;

/** A new session in a fresh workspace, its permission requests answered by `answer`. */
async function started(
  answer?: AcpClient["answer"],
): Promise<{ sessionId: string; workspace: string }> {
  const workspace = mkdtempSync(join(shared.setup.workspace, "ws-"));
  shared.client.answer =
    answer ?? ((request) => ({ outcome: "selected", optionId: request.options[0]!.optionId }));
  return { sessionId: await shared.client.newSession(workspace), workspace };
}

function prompt(sessionId: string, text: string) {
  return shared.client.prompt(sessionId, text);
}

/** What the client saw for one session, as short labels in arrival order. */
function sequence(sessionId: string): string[] {
  return shared.client.seen.flatMap((item) => {
    if (item.kind === "permission")
      return item.request.sessionId === sessionId ? ["permission"] : [];
    if (item.kind !== "update" || item.sessionId !== sessionId) return [];
    const update = item.update;
    if (update.sessionUpdate === "tool_call") return [`tool_call:${update.status}`];
    // A running call's progress (no status) comes as often as its output does: not counted.
    if (update.sessionUpdate === "tool_call_update")
      return update.status === undefined ? [] : [`update:${update.status}`];
    return [];
  });
}

describe("codewhale acp: tool calls and permissions", () => {
  shared = useAcp(mock, MODEL);

  it("bash asks: tool_call first, then the permission request; allow once runs it", async () => {
    callThenAnswer("bash", { command: "echo made > made.txt && echo ran" });
    const { sessionId, workspace } = await started(() => ({
      outcome: "selected",
      optionId: "allow_once",
    }));
    assert.equal((await prompt(sessionId, "make a file")).stopReason, "end_turn");
    assert.deepEqual(sequence(sessionId), [
      "tool_call:pending",
      "permission",
      "update:in_progress",
      "update:completed",
    ]);
    const call = asShown(shared.client.updates(sessionId)).find(
      (u) => u.sessionUpdate === "tool_call",
    );
    assert.ok(call && call.sessionUpdate === "tool_call");
    assert.equal(call.kind, "execute");
    assert.deepEqual(call.rawInput, { command: "echo made > made.txt && echo ran" });
    const permission = shared.client.seen.find(
      (item) => item.kind === "permission" && item.request.sessionId === sessionId,
    );
    assert.ok(permission?.kind === "permission");
    assert.equal(permission.request.toolCall.toolCallId, call.toolCallId);
    assert.deepEqual(
      permission.request.options.map((option) => option.kind),
      ["allow_once", "allow_always", "reject_once", "reject_always"],
    );
    const result = shared.client
      .updates(sessionId)
      .findLast((u) => u.sessionUpdate === "tool_call_update");
    assert.ok(result && result.sessionUpdate === "tool_call_update");
    assert.match(JSON.stringify(result.content), /ran/);
    assert.equal(readFileSync(join(workspace, "made.txt"), "utf8"), "made\n");
    // A client without the terminal capability: codewhale's own runner ran it.
    assert.ok(
      shared.client.seen.every((item) => item.kind !== "terminal"),
      "no terminal request",
    );
  });

  it("reject once: the command never runs, the update fails and the log records the user's no", async () => {
    callThenAnswer("bash", { command: "echo made > made.txt" });
    const { sessionId, workspace } = await started(() => ({
      outcome: "selected",
      optionId: "reject_once",
    }));
    assert.equal((await prompt(sessionId, "make a file")).stopReason, "end_turn");
    assert.deepEqual(sequence(sessionId), ["tool_call:pending", "permission", "update:failed"]);
    assert.equal(existsSync(join(workspace, "made.txt")), false);
    const call = logOf(shared.setup, sessionId).find((event) => event.type === "tool/call");
    assert.ok(call?.type === "tool/call");
    assert.equal(call.decision.outcome, "deny");
    assert.equal(call.decision.by, "user");
  });

  for (const [optionId, runs] of [
    ["allow_session", 2],
    ["reject_session", 0],
  ] as const) {
    it(`${optionId}: the same call later in the session is decided without asking again`, async () => {
      callThenAnswer("bash", { command: "echo x >> runs.txt" });
      callThenAnswer("bash", { command: "echo x >> runs.txt" });
      const { sessionId, workspace } = await started(() => ({ outcome: "selected", optionId }));
      await prompt(sessionId, "once");
      await prompt(sessionId, "twice");
      assert.equal(sequence(sessionId).filter((label) => label === "permission").length, 1);
      const file = join(workspace, "runs.txt");
      const ran = existsSync(file) ? readFileSync(file, "utf8").split("\n").length - 1 : 0;
      assert.equal(ran, runs);
    });
  }

  it("a prompt-injected command cannot read the provider key from its environment or its parent's", async () => {
    callThenAnswer("bash", { command: "env; tr '\\0' '\\n' < /proc/$PPID/environ" });
    const { sessionId } = await started();
    await prompt(sessionId, "print the environment");
    const result = shared.client
      .updates(sessionId)
      .findLast((u) => u.sessionUpdate === "tool_call_update");
    assert.ok(result && result.sessionUpdate === "tool_call_update");
    assert.equal(result.status, "completed");
    const [shown] = result.content ?? [];
    const text =
      shown?.type === "content" && shown.content.type === "text" ? shown.content.text : "";
    assert.equal(text.match(/CODEWHALE_HOME=/g)?.length, 2, "its own and its parent's environment");
    // Inside the sandbox (the default) the parent is the sandbox's own process, which never had
    // the key; outside it, codewhale's environ has the key blanked (exec-child-env tests that).
    assert.doesNotMatch(text, /ANTHROPIC_API_KEY=[^\n]/, "with no value left in it");
    assert.ok(!text.includes(shared.setup.env.ANTHROPIC_API_KEY!));
    assert.ok(
      !shared.client.stdoutLines().join("\n").includes(shared.setup.env.ANTHROPIC_API_KEY!),
    );
  });

  it("write shows its file as an absolute location and its result as a diff", async () => {
    callThenAnswer("write", { path: "notes.md", content: "# Notes\n" });
    const { sessionId, workspace } = await started();
    assert.equal((await prompt(sessionId, "write notes")).stopReason, "end_turn");
    const updates = shared.client.updates(sessionId);
    const call = asShown(updates).find((u) => u.sessionUpdate === "tool_call");
    assert.ok(call && call.sessionUpdate === "tool_call");
    assert.equal(call.kind, "edit");
    assert.deepEqual(call.locations, [{ path: join(workspace, "notes.md") }]);
    const result = updates.findLast((u) => u.sessionUpdate === "tool_call_update");
    assert.ok(result && result.sessionUpdate === "tool_call_update");
    assert.equal(result.status, "completed");
    assert.deepEqual(result.content?.[0], {
      type: "diff",
      path: join(workspace, "notes.md"),
      oldText: null,
      newText: "# Notes\n",
    });
  });

  it("a read runs without asking; a secret in the file reaches the editor redacted, as the model sees it", async () => {
    const secret = fakeKey("openai");
    callThenAnswer("read", { path: "config.txt" });
    const { sessionId, workspace } = await started();
    writeFileSync(join(workspace, "config.txt"), `token=${secret}\n`);
    // A client without fs capabilities: its buffers are never asked for.
    shared.client.buffers.set(join(workspace, "config.txt"), "unsaved buffer");
    assert.equal((await prompt(sessionId, "read it")).stopReason, "end_turn");
    assert.deepEqual(sequence(sessionId), [
      "tool_call:pending",
      "update:in_progress",
      "update:completed",
    ]);
    const call = asShown(shared.client.updates(sessionId)).find(
      (u) => u.sessionUpdate === "tool_call",
    );
    assert.ok(call && call.sessionUpdate === "tool_call");
    assert.equal(call.kind, "read");
    assert.ok(!shared.client.stdoutLines().join("\n").includes(secret), "the secret never left");
    assert.match(JSON.stringify(shared.client.updates(sessionId)), /REDACTED/);
    assert.doesNotMatch(JSON.stringify(shared.client.updates(sessionId)), /unsaved buffer/);
    assert.ok(
      shared.client.seen.every((item) => item.kind !== "fs"),
      "no fs request",
    );
  });

  it("todo_write becomes a plan", async () => {
    const todos = [
      { content: "write the bridge", status: "completed" },
      { content: "test it", status: "in_progress" },
    ];
    callThenAnswer("todo_write", { todos });
    const { sessionId } = await started();
    await prompt(sessionId, "plan");
    const plan = shared.client.updates(sessionId).find((u) => u.sessionUpdate === "plan");
    assert.ok(plan && plan.sessionUpdate === "plan");
    assert.deepEqual(
      plan.entries.map(({ content, status }) => ({ content, status })),
      todos,
    );
  });

  it("session/cancel during a permission request ends the prompt cancelled; the command never runs", async () => {
    // Only the call: the cancelled turn sends no second request.
    mock.enqueue({
      blocks: [
        {
          kind: "tool",
          id: nextCallId(),
          name: "bash",
          input: { command: "echo made > made.txt" },
        },
      ],
    });
    let asked = false;
    // Never answered by the client itself: the cancel has to end the wait.
    const { sessionId, workspace } = await started((request) => {
      asked = true;
      return new Promise(() => undefined).then(() => ({
        outcome: "selected" as const,
        optionId: request.options[0]!.optionId,
      }));
    });
    const running = prompt(sessionId, "make a file");
    await waitFor(() => asked);
    await shared.client.agent.notify(acp.methods.agent.session.cancel, { sessionId });
    assert.equal((await running).stopReason, "cancelled");
    assert.equal(existsSync(join(workspace, "made.txt")), false);
  });
});

describe("codewhale acp: a running call's progress", () => {
  it("each progress report of a call is a tool_call_update with its text, before the result", async () => {
    const setup = execEnv(mock);
    const client = spawnAcp(setup, MODEL, { testTools: true });
    try {
      await client.initialize();
      const sessionId = await client.newSession(setup.workspace);
      const steps = ["building 1/2", "building 2/2 \x1b[2J"];
      callThenAnswer("progress", { steps, ms: 30 });
      assert.equal((await client.prompt(sessionId, "build")).stopReason, "end_turn");
      const shown = asShown(client.updates(sessionId)).flatMap((u) => {
        if (u.sessionUpdate !== "tool_call_update") return [];
        const [first] = u.content ?? [];
        const text =
          first?.type === "content" && first.content.type === "text" ? first.content.text : "";
        return [`${u.status ?? "-"}:${text}`];
      });
      assert.deepEqual(shown, [
        "in_progress:",
        "-:building 1/2",
        "-:building 2/2 \\x1b[2J",
        "completed:done",
      ]);
    } finally {
      assert.equal(await client.close(), 0, client.stderr());
    }
  });
});

// What hooks say reaches the log and the model through the output policy (review finding:
// 500 KB reasons and 1 MiB notes with escapes and passwords went through whole). Each path is
// run in the loop with real hook scripts; the recorded event is checked, and it is what is sent.
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import type { HookConfig } from "../../src/config/index.ts";
import type { HistoryMessage } from "../../src/session/derive.ts";
import type { EventOf, SessionEvent } from "../../src/session/events.ts";
import { createHookDir } from "../hooks/support/fixtures.ts";
import { assertPoliced, payloadFile, poisoned } from "../hooks/support/poison.ts";
import { openHarness, type Reply, scripted } from "./scripted.ts";

const hooks = createHookDir();
after(() => hooks.cleanup());

function ofType<T extends SessionEvent["type"]>(events: SessionEvent[], type: T): EventOf<T>[] {
  return events.filter((e): e is EventOf<T> => e.type === type);
}

/** A hook that prints the file's content on stdout (exit 0) or stderr (exit 2). */
function catHook(name: string, text: string, stream: "stdout" | "stderr" = "stdout"): string {
  const file = payloadFile(hooks.dir, `${name}.txt`, text);
  const tail = stream === "stderr" ? `cat "${file}" >&2\nexit 2` : `cat "${file}"`;
  return hooks.script(`${name}.sh`, `cat > /dev/null\n${tail}`);
}

function preToolUse(decision: string, reason: string, extra: object = {}): string {
  const specific = { hookEventName: "PreToolUse", permissionDecision: decision, ...extra };
  return JSON.stringify({ hookSpecificOutput: { ...specific, permissionDecisionReason: reason } });
}

async function run(replies: Reply[], config: Partial<Record<string, HookConfig[]>>) {
  const script = scripted(...replies);
  const h = await openHarness(script, { flags: { hooks: config } });
  const notices: string[] = [];
  h.bus.on("agent/notice", ({ message }) => void notices.push(message));
  await h.agent.submit("go");
  h.agent.dispose();
  return { h, requests: script.requests, notices };
}

const echoCall: Reply = { calls: [{ id: "c1", name: "echo", args: { text: "hi" } }] };

/** The tool message and the user-side notes of a request, as sent. */
function sent(messages: readonly HistoryMessage[]) {
  const tool = messages.find((m) => m.role === "tool")?.content;
  const notes = messages.flatMap((m) => (m.role === "user" ? [m.text] : []));
  return { tool, notes, bytes: Buffer.byteLength(JSON.stringify(messages)) };
}

describe("hook text in the loop, through the output policy", () => {
  it("a 500 KB PreToolUse deny reason is recorded and sent bounded, stripped and redacted", async () => {
    const command = catHook("deny", preToolUse("deny", poisoned(500_000)));
    const { h, requests } = await run([echoCall, { text: "ok" }], { PreToolUse: [{ command }] });
    const [result] = ofType(h.events, "tool/result");
    assert.equal(result?.is_error, true);
    assertPoliced(result?.content ?? "");
    assert.equal(ofType(h.events, "tool/call")[0]?.decision.reason, result?.content);
    const next = sent(requests[1]!.messages);
    assert.equal(next.tool, result?.content, "the model is told what the log records");
    assert.ok(next.bytes < 40_000, `the next request holds ${next.bytes} bytes`);
  });

  it("the configured [output] max_bytes bounds what a hook says, as it bounds tool output", async () => {
    const command = catHook("deny-small", preToolUse("deny", "x".repeat(50_000)));
    const script = scripted(echoCall, { text: "ok" });
    const flags = { hooks: { PreToolUse: [{ command }] }, output: { max_bytes: 2000 } };
    const h = await openHarness(script, { flags });
    await h.agent.submit("go");
    h.agent.dispose();
    const content = ofType(h.events, "tool/result")[0]?.content ?? "";
    assert.ok(Buffer.byteLength(content) < 2600, `${Buffer.byteLength(content)} bytes`);
    assert.match(content, /50,?000 bytes|omitted/);
  });

  it("an exit-2 reason with a title and a screen clear reaches the model as its words alone", async () => {
    const stderr = "\u001b]0;TITLE\u0007\u001b[2Jrm -rf is not allowed\n";
    const command = catHook("exit2", stderr, "stderr");
    const { h } = await run([echoCall, { text: "ok" }], { PreToolUse: [{ command }] });
    assert.equal(ofType(h.events, "tool/result")[0]?.content, "rm -rf is not allowed");
  });

  it("an ask reason reaches exec's denial policed; a rewrite note gives the policed reason's first line", async () => {
    const ask = catHook("ask", preToolUse("ask", poisoned(100_000)));
    const asked = await run([echoCall, { text: "ok" }], { PreToolUse: [{ command: ask }] });
    const denial = ofType(asked.h.events, "tool/result")[0]?.content ?? "";
    assert.match(denial, /^echo needs approval \(/);
    assert.ok(!["hunter2", "\u001b", "\u0007"].some((bad) => denial.includes(bad)), denial);
    assert.ok(Buffer.byteLength(denial) < 31_000, `${Buffer.byteLength(denial)} bytes`);
    const updatedInput = { text: "hello" };
    const rewrite = catHook("rewrite", preToolUse("allow", poisoned(100_000), { updatedInput }));
    const rewritten = await run([echoCall, { text: "ok" }], { PreToolUse: [{ command: rewrite }] });
    const content = ofType(rewritten.h.events, "tool/result")[0]?.content ?? "";
    // The poison's `\e[2J` clears the screen: " first" lands on the row below, as a terminal
    // shows it, so the reason's first line ends before it. (Redacting the note again takes the
    // `)` after the placeholder as part of the value: a redactor matter, left to its owners.)
    const prefix = `[codewhale] This echo call was rewritten by hook:${rewrite} (password: [REDACTED:password]`;
    assert.ok(content.startsWith(prefix), content);
    assert.ok(content.endsWith(' before it ran.\nIt ran with: {"text":"hello"}\n\nhello'), content);
    assert.ok(!content.includes("hunter2"), content);
    assertPoliced(ofType(rewritten.h.events, "tool/call")[0]?.rewrite_reason ?? "");
  });

  it("a PostToolUse exit-2 reason past the 1 MiB cap is a context/note of max_bytes, sent as recorded", async () => {
    const command = catHook("post", poisoned(1_100_000), "stderr");
    const { h, requests } = await run([echoCall, { text: "ok" }], { PostToolUse: [{ command }] });
    const [note] = ofType(h.events, "context/note");
    assert.equal(note?.source, "hook:PostToolUse");
    assertPoliced(note?.text ?? "", { cut: true });
    assert.equal(ofType(h.events, "tool/result")[0]?.content, "hi", "the result is unchanged");
    const next = sent(requests[1]!.messages);
    assert.ok(next.notes.at(-1)?.endsWith(note?.text ?? "(none)"));
    assert.ok(next.bytes < 40_000, `the next request holds ${next.bytes} bytes`);
  });

  it("plain stdout of SessionStart and UserPromptSubmit past the cap are context/notes of max_bytes", async () => {
    const start = catHook("start", poisoned(1_100_000));
    const prompt = catHook("prompt", poisoned(1_100_000));
    const { h, requests } = await run([{ text: "ok" }], {
      SessionStart: [{ command: start }],
      UserPromptSubmit: [{ command: prompt }],
    });
    const notes = ofType(h.events, "context/note");
    assert.deepEqual(
      notes.map((n) => n.source),
      ["hook:SessionStart", "hook:UserPromptSubmit"],
    );
    for (const note of notes) assertPoliced(note.text, { cut: true });
    const first = sent(requests[0]!.messages);
    assert.ok(first.bytes < 70_000, `the first request holds ${first.bytes} bytes`);
  });

  it("a systemMessage is shown as one line without escape sequences or secrets", async () => {
    const message = {
      systemMessage:
        "\u001b]0;pwned\u0007\u001b[1mformatted\u001b[0m password: hunter2hunter2\nline 2",
    };
    const command = catHook("message", JSON.stringify(message));
    const { notices } = await run([echoCall, { text: "ok" }], { PostToolUse: [{ command }] });
    assert.deepEqual(notices, ["formatted password: [REDACTED:password]"]);
  });
});

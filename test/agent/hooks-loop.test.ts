// The observer hooks inside the loop (scripted provider, real hook scripts): SessionStart and
// UserPromptSubmit context, a blocked prompt that is recorded and never sent, PostToolUse
// notes after the results, a Stop hook that keeps the turn going once, and SessionEnd on close.
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import type { HookConfig } from "../../src/config/index.ts";
import type { EventOf, SessionEvent } from "../../src/session/events.ts";
import { createHookDir, echoJson } from "../hooks/support/fixtures.ts";
import { openHarness, type Reply, scripted } from "./scripted.ts";

const hooks = createHookDir();
after(() => hooks.cleanup());

function ofType<T extends SessionEvent["type"]>(events: SessionEvent[], type: T): EventOf<T>[] {
  return events.filter((e): e is EventOf<T> => e.type === type);
}

async function open(replies: Reply[], config: Partial<Record<string, HookConfig[]>>) {
  const script = scripted(...replies);
  const env = { ANTHROPIC_API_KEY: "sk-ant-api03-test", PATH: process.env.PATH ?? "" };
  const h = await openHarness(script, { env, flags: { hooks: config } });
  return { h, requests: script.requests };
}

/** The user-side texts of a request, in order. */
function userTexts(messages: Array<{ role: string; text?: string }>): string[] {
  return messages.filter((m) => m.role === "user").map((m) => m.text ?? "");
}

describe("hooks in the loop", () => {
  it("SessionStart context reaches the first request before the prompt, as a durable note", async () => {
    const command = hooks.script("start.sh", "cat >/dev/null\necho 'Use pnpm.'");
    const { h, requests } = await open([{ text: "ok" }], { SessionStart: [{ command }] });
    await h.agent.submit("install");
    h.agent.dispose();
    assert.deepEqual(userTexts(requests[0]!.messages), [
      "[codewhale] Note from hook:SessionStart:\nUse pnpm.",
      "install",
    ]);
    assert.equal(ofType(h.events, "context/note")[0]!.turn, 0);
  });

  it("UserPromptSubmit: a blocked prompt is recorded, never sent, never replayed; context joins a sent one", async () => {
    const body = [
      "input=$(cat)",
      'case "$input" in *secret*) echo "no secrets" >&2; exit 2;; esac',
      echoJson({
        hookSpecificOutput: { hookEventName: "UserPromptSubmit", additionalContext: "be brief" },
      }).split("\n")[1],
    ].join("\n");
    const command = hooks.script("prompt.sh", body);
    const { h, requests } = await open([{ text: "ok" }], { UserPromptSubmit: [{ command }] });
    const blocked = await h.agent.submit("my secret is 42");
    assert.deepEqual(blocked, {
      turn: 0,
      reason: "error",
      error: `prompt blocked by hook:${command}: no secrets`,
    });
    assert.equal(requests.length, 0);
    await h.agent.submit("hello");
    h.agent.dispose();
    assert.deepEqual(userTexts(requests[0]!.messages), [
      "hello",
      "[codewhale] Note from hook:UserPromptSubmit:\nbe brief",
    ]);
    const users = ofType(h.events, "user/message");
    assert.deepEqual(users[0]!.blocked, { by: `hook:${command}`, reason: "no secrets" });
    assert.deepEqual(
      ofType(h.events, "turn/start").map((t) => t.turn),
      [0, 1],
    );
  });

  it("PostToolUse notes follow the tool results in the next request; the recorded result is unchanged", async () => {
    const answer = {
      hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: "2 warnings" },
    };
    const command = hooks.script("post.sh", echoJson(answer));
    const call = { calls: [{ id: "c1", name: "echo", args: { text: "hi" } }] };
    const { h, requests } = await open([call, { text: "ok" }], { PostToolUse: [{ command }] });
    await h.agent.submit("go");
    h.agent.dispose();
    const second = requests[1]!.messages;
    assert.deepEqual(
      second
        .slice(-2)
        .map((m) => (m.role === "user" ? m.text : m.role === "tool" ? m.content : m.role)),
      ["hi", "[codewhale] Note from hook:PostToolUse about tool call c1:\n2 warnings"],
    );
    assert.equal(ofType(h.events, "tool/result")[0]!.content, "hi");
  });

  it("a Stop hook that blocks keeps the turn going with its reason; the second time it is told so", async () => {
    const seen = join(hooks.dir, "stop-inputs");
    const body = [
      `input=$(cat); echo "$input" >> "${seen}"`,
      'case "$input" in *\'"stop_hook_active":false\'*) echo "run the tests first" >&2; exit 2;; esac',
    ].join("\n");
    const command = hooks.script("stop.sh", body);
    const { h, requests } = await open([{ text: "done?" }, { text: "tests pass" }], {
      Stop: [{ command }],
    });
    const outcome = await h.agent.submit("fix it");
    h.agent.dispose();
    assert.equal(outcome.reason, "completed");
    assert.equal(requests.length, 2);
    assert.equal(
      userTexts(requests[1]!.messages).at(-1),
      "[codewhale] Note from hook:Stop:\nrun the tests first",
    );
    const inputs = readFileSync(seen, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    assert.deepEqual(
      inputs.map((i) => i.stop_hook_active),
      [false, true],
    );
  });

  it("close() runs the SessionEnd hooks with reason exit", async () => {
    const marker = join(hooks.dir, "ended");
    const command = hooks.script("end.sh", `cat > "${marker}"`);
    const { h } = await open([], { SessionEnd: [{ command }] });
    await h.agent.close();
    assert.ok(existsSync(marker));
    assert.equal(JSON.parse(readFileSync(marker, "utf8")).reason, "exit");
  });
});

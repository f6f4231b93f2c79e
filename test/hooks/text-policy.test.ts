// Every text a hook contributes goes through the tool-output policy before anyone reads it:
// reasons, notes and plain stdout come out stripped, redacted and bounded to max_bytes with the
// marker; lines for the user come out as one clean line. Real hook scripts in a temp dir.
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import type { Config, HookConfig } from "../../src/config/index.ts";
import type { HookToolCall } from "../../src/hooks/index.ts";
import { createPreToolUseListeners, createSessionHooks } from "../../src/hooks/index.ts";
import { createHookDir } from "./support/fixtures.ts";
import { assertPoliced, MARKER, POISON, payloadFile, poisoned } from "./support/poison.ts";

const hooks = createHookDir();
after(() => hooks.cleanup());

const bashCall: HookToolCall = { callId: "c1", name: "bash", arguments: { command: "make" } };

function only(event: keyof Config["hooks"], list: HookConfig[]): Config["hooks"] {
  const empty = {
    SessionStart: [],
    UserPromptSubmit: [],
    PreToolUse: [],
    PostToolUse: [],
    Stop: [],
    PreCompact: [],
    SessionEnd: [],
    Notification: [],
  };
  return { ...empty, [event]: list };
}

/** A hook that prints the file's content on stdout (exit 0) or stderr (exit 2). */
function catHook(name: string, text: string, stream: "stdout" | "stderr" = "stdout"): string {
  const file = payloadFile(hooks.dir, `${name}.txt`, text);
  const tail = stream === "stderr" ? `cat "${file}" >&2\nexit 2` : `cat "${file}"`;
  return hooks.script(`${name}.sh`, `cat > /dev/null\n${tail}`);
}

async function decide(command: string, runtime = hooks.runtime()) {
  const [listener] = createPreToolUseListeners([{ command }], runtime);
  assert.ok(listener);
  return listener.decide(bashCall);
}

describe("what a hook says, through the output policy", () => {
  it("a 500 KB deny reason with a title sequence and a password is cut to max_bytes, stripped and redacted", async () => {
    const answer = {
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        permissionDecision: "deny",
        permissionDecisionReason: poisoned(500_000),
      },
    };
    const verdict = await decide(catHook("deny", JSON.stringify(answer)));
    assert.equal(verdict?.outcome, "deny");
    assertPoliced(verdict?.reason ?? "");
    assert.match(verdict?.reason ?? "", /original output 500\d{3} bytes/);
  });

  it("an exit-2 reason loses its title and clear-screen sequences; one made only of them names the hook", async () => {
    const words = await decide(
      catHook("exit2", "\u001b]0;TITLE\u0007\u001b[2Jrm -rf is not allowed\n", "stderr"),
    );
    assert.deepEqual(verdict(words), { outcome: "deny", reason: "rm -rf is not allowed" });
    const blank = catHook("blank", "\u001b]0;TITLE\u0007\u001b[2J\n", "stderr");
    assert.deepEqual(verdict(await decide(blank)), {
      outcome: "deny",
      reason: `hook "${blank}" blocked it`,
    });
  });

  it("an ask reason and a rewrite reason are policed like a deny reason", async () => {
    const ask = (permissionDecision: string, extra = {}) => ({
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        permissionDecision,
        permissionDecisionReason: poisoned(100_000),
        ...extra,
      },
    });
    const asked = await decide(catHook("ask", JSON.stringify(ask("ask"))));
    assert.equal(asked?.outcome, "ask");
    assertPoliced(asked?.reason ?? "");
    const rewrite = ask("allow", { updatedInput: { command: "make -j4" } });
    const rewritten = await decide(catHook("rewrite", JSON.stringify(rewrite)));
    assert.deepEqual(rewritten?.rewrite?.arguments, { command: "make -j4" });
    assertPoliced(rewritten?.rewrite?.reason ?? "");
  });

  it("the session's [output] policy decides: a smaller max_bytes, and redact_secrets = false", async () => {
    const output = { maxBytes: 2000, spillToTemp: true, redactSecrets: false };
    const command = catHook("post-small", poisoned(200_000), "stderr");
    const session = createSessionHooks(
      only("PostToolUse", [{ command }]),
      hooks.runtime({ output }),
    );
    const notes = await session.postToolUse(bashCall, { content: "built", isError: false });
    const [note = ""] = notes.context;
    assert.match(note, MARKER);
    assert.ok(Buffer.byteLength(note.replace(MARKER, "")) <= 2000);
    assert.equal(note.match(/password: hunter2hunter2/g)?.length, 2, "kept, as configured");
    assert.ok(!note.includes("\u001b") && !note.includes("\u0007"), "escapes stripped");
  });

  it("PostToolUse exit-2 stderr and SessionStart/UserPromptSubmit stdout past the 1 MiB cap become notes of max_bytes", async () => {
    const big = poisoned(1_100_000);
    const post = createSessionHooks(
      only("PostToolUse", [{ command: catHook("post", big, "stderr") }]),
      hooks.runtime(),
    );
    const postNotes = await post.postToolUse(bashCall, { content: "built", isError: false });
    assert.equal(postNotes.context.length, 1);
    assertPoliced(postNotes.context[0] ?? "", { cut: true });
    const start = createSessionHooks(
      only("SessionStart", [{ command: catHook("start", big) }]),
      hooks.runtime(),
    );
    const startNotes = await start.sessionStart("startup");
    assertPoliced(startNotes.context[0] ?? "", { cut: true });
    const prompt = createSessionHooks(
      only("UserPromptSubmit", [{ command: catHook("prompt", big) }]),
      hooks.runtime(),
    );
    const promptNotes = await prompt.userPromptSubmit("hi");
    assertPoliced(promptNotes.context[0] ?? "", { cut: true });
  });

  it("additionalContext, a Stop block reason and a stopReason are policed too", async () => {
    const answer = {
      continue: false,
      stopReason: poisoned(60_000),
      decision: "block",
      reason: poisoned(60_000),
      hookSpecificOutput: { hookEventName: "Stop", additionalContext: poisoned(60_000) },
    };
    const session = createSessionHooks(
      only("Stop", [{ command: catHook("stop", JSON.stringify(answer)) }]),
      hooks.runtime(),
    );
    const notes = await session.stop(false);
    assertPoliced(notes.context[0] ?? "");
    assertPoliced(notes.block?.reason ?? "");
    assertPoliced(notes.stop?.reason ?? "");
  });

  it("what the user sees is one stripped, redacted line: a systemMessage, a failing hook's stderr, an exit-2 reason", async () => {
    const message = {
      systemMessage: `\u001b]0;pwned\u0007\u001b[31mformatted\u001b[0m token=ghp_${"a".repeat(36)}\nsecond line`,
    };
    const failing = hooks.script(
      "fail.sh",
      `cat > /dev/null\nprintf '\\033[2J\\n\\033]0;x\\007boom: password: hunter2hunter2\\nmore\\n' >&2\nexit 1`,
    );
    const blocking = catHook("start-block", `${POISON} then\nsecond line\n`, "stderr");
    const session = createSessionHooks(
      only("SessionStart", [
        { command: catHook("msg", JSON.stringify(message)) },
        { command: failing },
        { command: blocking },
      ]),
      hooks.runtime(),
    );
    const notes = await session.sessionStart("startup");
    assert.deepEqual(notes.notices, [
      "formatted token=[REDACTED:github_token]",
      `hook "${failing}" failed with exit code 1: boom: password: [REDACTED:password]`,
      // `\e[2J` clears the screen and " then" lands on the row below, as a terminal shows it.
      `hook:${blocking}: password: [REDACTED:password]`,
    ]);
  });

  it("a user line is at most 200 characters, cut only after the secret was redacted", async () => {
    const token = `ghp_${"b".repeat(36)}`;
    const message = { systemMessage: `${"w".repeat(160)} token ${token} ${"z".repeat(50)}` };
    const session = createSessionHooks(
      only("SessionEnd", [{ command: catHook("long", JSON.stringify(message)) }]),
      hooks.runtime(),
    );
    const [line = ""] = (await session.sessionEnd("exit")).notices;
    assert.equal(line.length, 200);
    assert.ok(line.endsWith("z…"));
    assert.ok(line.includes(" token [REDACTED:github_token] "), line);
  });
});

function verdict(answer: { outcome?: string; reason?: string } | undefined) {
  return { outcome: answer?.outcome, reason: answer?.reason };
}

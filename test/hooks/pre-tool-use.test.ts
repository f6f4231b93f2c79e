// PreToolUse hooks written for Claude Code, run unchanged: the stdin they read, each answer
// they can give (allow, deny, ask, updatedInput, exit 2, other exits, bad JSON), matchers,
// timeouts that kill the whole tree, hooks that never read stdin, and the output caps.
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { setTimeout as delay } from "node:timers/promises";
import type { HookConfig } from "../../src/config/index.ts";
import type { HookToolCall } from "../../src/hooks/index.ts";
import { createPreToolUseListeners, HOOK_IO_CAP, runHookCommand } from "../../src/hooks/index.ts";
import { createHookDir, echoJson } from "./support/fixtures.ts";

const hooks = createHookDir();
after(() => hooks.cleanup());

async function decide(hook: HookConfig, call: HookToolCall) {
  const [listener] = createPreToolUseListeners([hook], hooks.runtime());
  assert.ok(listener);
  return listener.decide(call);
}

const bashCall: HookToolCall = {
  callId: "call-1",
  name: "bash",
  arguments: { command: "npm test" },
};
const decision = (permissionDecision: string, reason: string) => ({
  hookSpecificOutput: {
    hookEventName: "PreToolUse",
    permissionDecision,
    permissionDecisionReason: reason,
  },
});

describe("a PreToolUse hook", () => {
  it("reads Claude Code's fields on stdin, with Claude Code's tool names and keys", async () => {
    const out = join(hooks.dir, "stdin.json");
    const command = hooks.script("record.sh", `cat > "${out}"`);
    await decide({ command }, { callId: "c-9", name: "read", arguments: { path: "src/a.ts" } });
    const input = JSON.parse(readFileSync(out, "utf8"));
    assert.deepEqual(input, {
      session_id: "s-123",
      transcript_path: join(hooks.dir, "session.jsonl"),
      cwd: hooks.dir,
      hook_event_name: "PreToolUse",
      permission_mode: "default",
      tool_name: "Read",
      tool_input: { file_path: join(hooks.dir, "src/a.ts") },
      tool_use_id: "c-9",
    });
  });

  it("allow, deny and ask map onto verdicts with their reasons", async () => {
    for (const outcome of ["allow", "deny", "ask"] as const) {
      const command = hooks.script(`${outcome}.sh`, echoJson(decision(outcome, `said ${outcome}`)));
      assert.deepEqual(await decide({ command }, bashCall), { outcome, reason: `said ${outcome}` });
    }
  });

  it("the legacy decision: block denies with its reason", async () => {
    const command = hooks.script("legacy.sh", echoJson({ decision: "block", reason: "no" }));
    assert.deepEqual(await decide({ command }, bashCall), { outcome: "deny", reason: "no" });
  });

  it("updatedInput becomes a rewrite, translated back to codewhale's keys", async () => {
    const body = `node -e '
      let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => {
        const input = JSON.parse(s).tool_input;
        const updatedInput = { ...input, new_string: "fixed" };
        console.log(JSON.stringify({ hookSpecificOutput: { hookEventName: "PreToolUse",
          permissionDecision: "allow", permissionDecisionReason: "house style", updatedInput } }));
      });'`;
    const command = hooks.script("rewrite.sh", body);
    const call = { callId: "c", name: "edit", arguments: { path: "a.ts", new_string: "x" } };
    assert.deepEqual(await decide({ command }, call), {
      outcome: "allow",
      reason: "house style",
      rewrite: { arguments: { path: "a.ts", new_string: "fixed" }, reason: "house style" },
    });
  });

  it("exit 2 blocks with stderr as the reason; stdout is ignored", async () => {
    const body = `cat > /dev/null\necho '{"hookSpecificOutput":{"permissionDecision":"allow"}}'\necho "rm is not allowed here" >&2\nexit 2`;
    const command = hooks.script("exit2.sh", body);
    assert.deepEqual(await decide({ command }, bashCall), {
      outcome: "deny",
      reason: "rm is not allowed here",
    });
  });

  it("another exit code is a one-line notice, and the call goes on unless on_error is deny", async () => {
    const command = hooks.script("exit1.sh", 'echo "boom\nmore" >&2\nexit 1');
    const notice = `hook "${command}" failed with exit code 1: boom`;
    assert.deepEqual(await decide({ command }, bashCall), { notice });
    assert.deepEqual(await decide({ command, on_error: "deny" }, bashCall), {
      outcome: "deny",
      reason: `${notice} (on_error = "deny")`,
      notice,
    });
  });

  it("malformed JSON on stdout is a hook error", async () => {
    const command = hooks.script("bad-json.sh", "echo '{not json'");
    const verdict = await decide({ command }, bashCall);
    assert.match(verdict?.notice ?? "", /printed unreadable output \(not valid JSON\)/);
    assert.equal(verdict?.outcome, undefined);
  });

  it("continue: false denies and asks the loop to stop, with stopReason", async () => {
    const command = hooks.script("stop.sh", echoJson({ continue: false, stopReason: "quota" }));
    assert.deepEqual(await decide({ command }, bashCall), {
      outcome: "deny",
      reason: "quota",
      stop: "quota",
    });
  });

  it("the matcher selects tools by Claude Code's name or codewhale's", async () => {
    const command = hooks.script("deny-all.sh", echoJson(decision("deny", "matched")));
    const write = { callId: "c", name: "write", arguments: { path: "a", content: "" } };
    assert.equal((await decide({ command, matcher: "Edit|Write" }, write))?.outcome, "deny");
    assert.equal((await decide({ command, matcher: "write" }, write))?.outcome, "deny");
    assert.equal(await decide({ command, matcher: "Bash" }, write), undefined);
    assert.equal(await decide({ command, matcher: "Writ" }, write), undefined);
    assert.equal((await decide({ command, matcher: "*" }, write))?.outcome, "deny");
  });
});

describe("bounds", () => {
  it("a hook past its timeout is killed with its whole process tree; on_error is followed", async () => {
    const pids = join(hooks.dir, "pids");
    const command = hooks.script("slow.sh", `sleep 30 &\necho "$$ $!" > "${pids}"\nsleep 30`);
    const verdict = await decide({ command, timeout_ms: 300, on_error: "deny" }, bashCall);
    assert.equal(verdict?.outcome, "deny");
    assert.match(verdict?.reason ?? "", /timed out after 300 ms/);
    const [shell, child] = readFileSync(pids, "utf8").trim().split(" ").map(Number);
    for (const pid of [shell, child]) assert.ok(await gone(pid ?? 0), `process ${pid} survived`);
    const open = await decide({ command, timeout_ms: 300 }, bashCall);
    assert.deepEqual(Object.keys(open ?? {}), ["notice"]);
  });

  it("a hook that never reads stdin does not hang on a large input", async () => {
    const command = hooks.script("no-read.sh", "echo '{}'");
    const big = {
      callId: "c",
      name: "write",
      arguments: { path: "a", content: "x".repeat(3_000_000) },
    };
    assert.deepEqual(await decide({ command }, big), {});
  });

  it("stdin is capped at 1 MiB and still parses", async () => {
    const out = join(hooks.dir, "big-stdin.json");
    const command = hooks.script("big-stdin.sh", `cat > "${out}"`);
    const content = "y".repeat(3_000_000);
    await decide({ command }, { callId: "c", name: "write", arguments: { path: "a", content } });
    const text = readFileSync(out, "utf8");
    assert.ok(Buffer.byteLength(text) <= HOOK_IO_CAP);
    assert.match(JSON.parse(text).tool_input.content, /…\[truncated by codewhale\]$/);
  });

  it("stdout is capped at 1 MiB; capped JSON is an error", async () => {
    const flood = "head -c 3000000 /dev/zero | tr '\\000' a";
    const result = await runHookCommand({
      command: flood,
      cwd: hooks.dir,
      env: process.env,
      input: "",
    });
    assert.equal(result.stdout.length, HOOK_IO_CAP);
    assert.equal(result.stdoutTruncated, true);
    const command = hooks.script("flood.sh", `printf '{"x":"'\n${flood}\nprintf '"}'`);
    const verdict = await decide({ command }, bashCall);
    assert.match(verdict?.notice ?? "", /stdout passed the 1 MiB cap/);
  });

  it("a command that cannot start is an error, not a crash", async () => {
    const verdict = await decide({ command: join(hooks.dir, "missing.sh") }, bashCall);
    assert.match(verdict?.notice ?? "", /failed with exit code 127/);
    assert.equal(existsSync(join(hooks.dir, "missing.sh")), false);
  });
});

/** Waits until `pid` no longer exists (reaped), up to 3 s. */
async function gone(pid: number): Promise<boolean> {
  for (let i = 0; i < 30; i++) {
    try {
      process.kill(pid, 0);
    } catch {
      return true;
    }
    await delay(100);
  }
  return false;
}

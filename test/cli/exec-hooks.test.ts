// Claude Code hook scripts through `codewhale exec` as a child process against the loopback
// mock: a PreToolUse hook that denies, a PostToolUse note, a SessionStart additionalContext, a
// UserPromptSubmit block, and project trust (an untrusted project's hooks are ignored with a
// notice on stderr, never on stdout; --trust lets them run).
import assert from "node:assert/strict";
import { chmodSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import type { EventOf, SessionEvent } from "../../src/session/events.ts";
import { readSession } from "../../src/session/reader.ts";
import {
  type ExecEnv,
  execEnv,
  jsonLines,
  MODEL_OF,
  runExec,
  runExecWithTools,
} from "../support/exec-harness.ts";
import { useMockProvider } from "../support/mock-provider/index.ts";

const mock = useMockProvider();

const STREAM = ["--model", MODEL_OF.anthropic, "--output-format", "stream-json"];

/** Writes an executable hook script into `dir` and returns its path. */
function script(dir: string, name: string, body: string): string {
  const path = join(dir, name);
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}

/** A `[[hooks.<event>]]` table. */
function hookToml(event: string, command: string, matcher?: string): string {
  const match = matcher === undefined ? "" : `matcher = ${JSON.stringify(matcher)}\n`;
  return `[[hooks.${event}]]\n${match}command = ${JSON.stringify(command)}\n`;
}

function logOf(stdout: string): SessionEvent[] {
  return readSession(String(jsonLines(stdout)[0]!.log_path)).events;
}

function ofType<T extends SessionEvent["type"]>(events: SessionEvent[], type: T): EventOf<T>[] {
  return events.filter((e): e is EventOf<T> => e.type === type);
}

function body(index: number): string {
  return JSON.stringify(mock.requests[index]!.body);
}

function withHook(event: string, name: string, text: string, matcher?: string): ExecEnv {
  const dir = execEnv(mock).home;
  const command = script(dir, name, text);
  const setup = execEnv(mock, hookToml(event, command, matcher));
  return setup;
}

describe("codewhale exec: Claude Code hooks", () => {
  it("a PreToolUse hook that exits 2 denies the call; the model reads its stderr", async () => {
    const setup = withHook(
      "PreToolUse",
      "deny.sh",
      "cat >/dev/null\necho 'no network' >&2\nexit 2",
      "Bash",
    );
    const toolLog = join(setup.home, "tools.jsonl");
    mock.enqueue({
      blocks: [{ kind: "tool", id: "toolu_1", name: "bash", input: { command: "curl x" } }],
    });
    mock.enqueue({ blocks: [{ kind: "text", text: "ok" }] });
    const first = mock.requests.length;
    const run = await runExecWithTools(
      [...STREAM, "--permission-mode", "bypass", "go"],
      setup,
      toolLog,
    );
    assert.equal(run.status, 0, run.stderr);
    assert.equal(existsSync(toolLog), false, "the tool never ran");
    const [call] = ofType(logOf(run.stdout), "tool/call");
    assert.equal(call!.decision.outcome, "deny");
    assert.equal(call!.decision.by, "hook");
    const [result] = ofType(logOf(run.stdout), "tool/result");
    assert.equal(result!.content, "no network");
    assert.ok(body(first + 1).includes("no network"));
  });

  it("a PostToolUse hook's additionalContext reaches the model after the result, as a durable note", async () => {
    const answer = {
      hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: "lint passed" },
    };
    const setup = withHook(
      "PostToolUse",
      "post.sh",
      `cat >/dev/null\necho '${JSON.stringify(answer)}'`,
    );
    mock.enqueue({
      blocks: [{ kind: "tool", id: "toolu_1", name: "echo", input: { text: "hi" } }],
    });
    mock.enqueue({ blocks: [{ kind: "text", text: "ok" }] });
    const first = mock.requests.length;
    const run = await runExecWithTools([...STREAM, "go"], setup);
    assert.equal(run.status, 0, run.stderr);
    const [note] = ofType(logOf(run.stdout), "context/note");
    assert.deepEqual(
      { source: note!.source, call_id: note!.call_id, text: note!.text },
      { source: "hook:PostToolUse", call_id: "toolu_1", text: "lint passed" },
    );
    const line = jsonLines(run.stdout).find((l) => l.type === "context/note");
    assert.equal(line?.text, "lint passed", "stream-json carries the note line");
    const next = body(first + 1);
    assert.ok(next.indexOf("lint passed") > next.indexOf('"tool_result"'));
  });

  it("a SessionStart hook's plain stdout is context the first request carries", async () => {
    const setup = withHook(
      "SessionStart",
      "start.sh",
      "cat >/dev/null\necho 'This project uses pnpm.'",
    );
    mock.enqueue({ blocks: [{ kind: "text", text: "ok" }] });
    const first = mock.requests.length;
    const run = await runExec([...STREAM, "install deps"], setup);
    assert.equal(run.status, 0, run.stderr);
    const sent = body(first);
    assert.ok(sent.includes("This project uses pnpm."));
    assert.ok(sent.indexOf("This project uses pnpm.") < sent.indexOf("install deps"));
    const [note] = ofType(logOf(run.stdout), "context/note");
    assert.equal(note!.source, "hook:SessionStart");
  });

  it("a UserPromptSubmit hook that blocks: nothing is sent, the user sees why, exit 1", async () => {
    const setup = withHook(
      "UserPromptSubmit",
      "gate.sh",
      "cat >/dev/null\necho 'no secrets in prompts' >&2\nexit 2",
    );
    const first = mock.requests.length;
    const run = await runExec([...STREAM, "my key is sk-123"], setup);
    assert.equal(run.status, 1);
    assert.equal(mock.requests.length, first, "no request was made");
    assert.match(run.stderr, /prompt blocked by hook:.*gate\.sh: no secrets in prompts/);
    const events = logOf(run.stdout);
    const [user] = ofType(events, "user/message");
    assert.equal(user!.blocked?.reason, "no secrets in prompts");
    assert.equal(ofType(events, "turn/end")[0]!.reason, "error");
    const result = jsonLines(run.stdout).at(-1)!;
    assert.equal(result.type, "result");
    assert.equal(result.exit_code, 1);
  });
});

describe("codewhale exec: project trust", () => {
  function projectWithHook(setup: ExecEnv): { marker: string; command: string } {
    const marker = join(setup.home, "ran");
    const command = script(setup.home, "project-start.sh", `cat >/dev/null\ntouch "${marker}"`);
    mkdirSync(join(setup.workspace, ".codewhale"), { recursive: true });
    writeFileSync(
      join(setup.workspace, ".codewhale", "config.toml"),
      hookToml("SessionStart", command),
    );
    return { marker, command };
  }

  it("untrusted: the project's hooks do not run, and stderr (not stdout) lists them once", async () => {
    const setup = execEnv(mock);
    const { marker, command } = projectWithHook(setup);
    mock.enqueue({ blocks: [{ kind: "text", text: "ok" }] });
    const run = await runExec([...STREAM, "hi"], setup);
    assert.equal(run.status, 0, run.stderr);
    assert.equal(existsSync(marker), false);
    assert.match(
      run.stderr,
      /^codewhale: ignoring these settings of the untrusted project file .*config\.toml: hooks\.SessionStart \(review them with `codewhale trust --show`, then run `codewhale trust` to trust them, or pass --trust for one run\)$/m,
    );
    assert.ok(!run.stderr.includes(command), "the untrusted command is not repeated");
    assert.equal(run.stderr.match(/ignoring these settings/g)?.length, 1);
    assert.ok(!run.stdout.includes("ignoring"), "stream-json stays clean");
  });

  it("--trust: the project's hooks run and nothing is ignored", async () => {
    const setup = execEnv(mock);
    const { marker } = projectWithHook(setup);
    mock.enqueue({ blocks: [{ kind: "text", text: "ok" }] });
    const run = await runExec([...STREAM, "--trust", "hi"], setup);
    assert.equal(run.status, 0, run.stderr);
    assert.equal(existsSync(marker), true);
    assert.ok(!run.stderr.includes("ignoring"));
  });
});

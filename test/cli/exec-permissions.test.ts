// Permissions through `codewhale exec` as a child process (with the recording test tools):
// in default mode read-only tools run and `bash` asks, which exec denies with a reason naming
// how to allow it, the very text the next request carries; `--allow`; a malformed rule or mode
// is a config error. Modes and rules deciding calls: test/agent/permission-rules-loop.test.ts.
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import type { EventOf, SessionEvent } from "../../src/session/events.ts";
import { readSession } from "../../src/session/reader.ts";
import {
  execEnv,
  jsonLines,
  MODEL_OF,
  runExec,
  runExecWithTools,
} from "../support/exec-harness.ts";
import { useMockProvider } from "../support/mock-provider/index.ts";

const mock = useMockProvider();

const MODEL = MODEL_OF.anthropic;

/** Enqueues a reply calling `name` with `input`, then a closing text reply. */
function callThenAnswer(name: string, input: Record<string, unknown>): void {
  mock.enqueue({ blocks: [{ kind: "tool", id: "toolu_1", name, input }] });
  mock.enqueue({ blocks: [{ kind: "text", text: "done" }] });
}

function logOf(stdout: string): SessionEvent[] {
  const init = jsonLines(stdout)[0]!;
  return readSession(String(init.log_path)).events;
}

function only<T extends SessionEvent["type"]>(events: SessionEvent[], type: T): EventOf<T> {
  const found = events.filter((e): e is EventOf<T> => e.type === type);
  assert.equal(found.length, 1, `one ${type}`);
  return found[0]!;
}

function ranCommands(toolLog: string): string[] {
  if (!existsSync(toolLog)) return [];
  return readFileSync(toolLog, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as { args: { command?: string } }).args.command ?? "");
}

describe("codewhale exec: permissions", () => {
  it("default mode: bash asks, exec denies it and the model is told how to allow it", async () => {
    const setup = execEnv(mock);
    const toolLog = join(setup.home, "tools.jsonl");
    callThenAnswer("bash", { command: "npm test" });
    const first = mock.requests.length;
    const run = await runExecWithTools(
      ["--model", MODEL, "--output-format", "stream-json", "run the tests"],
      setup,
      toolLog,
    );
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(ranCommands(toolLog), [], "the command never ran");
    const events = logOf(run.stdout);
    const call = only(events, "tool/call");
    assert.equal(call.decision.outcome, "deny");
    assert.equal(call.decision.by, "default");
    const result = only(events, "tool/result");
    assert.equal(result.is_error, true);
    assert.equal(
      result.content,
      "bash needs approval (default mode asks first: bash runs commands) and exec cannot ask. " +
        "To allow it: run with --permission-mode bypass, add permissions.allow = " +
        "[\"bash(npm test)\"] to your config, or pass --allow 'bash(npm test)'.",
    );
    const next = JSON.stringify(mock.requests[first + 1]!.body);
    assert.ok(next.includes(JSON.stringify(result.content).slice(1, -1)), "the model got it");
  });

  it("default mode: a read-only tool runs without asking", async () => {
    const setup = execEnv(mock);
    callThenAnswer("echo", { text: "hi" });
    const run = await runExecWithTools(
      ["--model", MODEL, "--output-format", "stream-json", "echo"],
      setup,
    );
    assert.equal(run.status, 0, run.stderr);
    const events = logOf(run.stdout);
    assert.deepEqual(only(events, "tool/call").decision, {
      outcome: "allow",
      by: "mode",
      rule: "default",
    });
    assert.equal(only(events, "tool/result").content, "hi");
  });

  it("--allow 'bash(npm test)' runs exactly that command, and nothing else", async () => {
    const setup = execEnv(mock);
    const toolLog = join(setup.home, "tools.jsonl");
    mock.enqueue({
      blocks: [
        { kind: "tool", id: "toolu_1", name: "bash", input: { command: "npm test" } },
        { kind: "tool", id: "toolu_2", name: "bash", input: { command: "npm test && rm -rf x" } },
      ],
    });
    mock.enqueue({ blocks: [{ kind: "text", text: "done" }] });
    const args = ["--model", MODEL, "--output-format", "stream-json", "--allow", "bash(npm test)"];
    const run = await runExecWithTools([...args, "test"], setup, toolLog);
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(ranCommands(toolLog), ["npm test"]);
    const calls = logOf(run.stdout).filter((e) => e.type === "tool/call");
    assert.deepEqual(
      calls.map((c) => c.type === "tool/call" && [c.decision.outcome, c.decision.rule]),
      [
        ["allow", "bash(npm test)"],
        ["deny", undefined],
      ],
    );
  });

  it("a malformed --allow rule or an unknown --permission-mode is an error with exit 2", async () => {
    const setup = execEnv(mock);
    // The real CLI: no tool runs, so the test tools' slower entry is not needed.
    const bad = await runExec(["--model", MODEL, "--allow", "bash(git:* log)", "x"], setup);
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /malformed permission rule "bash\(git:\* log\)"/);
    const mode = await runExec(["--permission-mode", "yolo", "x"], setup);
    assert.equal(mode.status, 2);
    assert.match(mode.stderr, /--permission-mode must be one of default, accept-edits/);
  });
});

// Golden files of every visible output of one scripted session, through the built CLI and the
// loopback mock: a failed request and its retry, thinking, a text answer, a read, a bash call
// rewritten by a trusted project's PreToolUse hook, a write that exec refuses, and the final
// answer. `exec` text (stdout and stderr), `--output-format json`, `stream-json` (also driven
// by `--input-format stream-json` with a second prompt), `sessions show` and `export` (md,
// html; the body before the receipt) are normalised (test/support/golden.ts) and compared byte for byte with
// test/fixtures/golden/; `UPDATE_GOLDEN=1 node scripts/test.mjs golden` rewrites them.
import assert from "node:assert/strict";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { runCli } from "../support/cli.ts";
import { type ExecEnv, execEnv, jsonLines, MODEL_OF, runExec } from "../support/exec-harness.ts";
import { matchGolden, type NormaliseContext, normalise, runContext } from "../support/golden.ts";
import {
  type MockProvider,
  type Script,
  serverError,
  startMockProvider,
} from "../support/mock-provider/index.ts";
import { WRAP_HOOK } from "../support/wrap-hook.ts";

/** The trusted project: a note to read, a rewriting hook, and an allow rule for its result. */
function project(setup: ExecEnv): void {
  const dir = join(setup.workspace, ".codewhale");
  mkdirSync(dir, { recursive: true });
  const hook = join(dir, "wrap.sh");
  writeFileSync(hook, `#!/bin/sh\n${WRAP_HOOK}\n`);
  chmodSync(hook, 0o755);
  const config = [
    "[permissions]",
    'allow = ["bash(timeout 60 echo hello)"]',
    "[[hooks.PreToolUse]]",
    'matcher = "Bash"',
    // As Claude Code projects write it: the log then holds no temp path, so its byte counts
    // do not depend on where the temp dirs are.
    'command = "$CLAUDE_PROJECT_DIR/.codewhale/wrap.sh"',
    // The hook starts node inside the sandbox: a loaded machine must not turn it into a timeout.
    "timeout_ms = 120000",
  ].join("\n");
  writeFileSync(join(dir, "config.toml"), `${config}\n`);
  writeFileSync(join(setup.workspace, "notes.txt"), "buy milk\nfix the tests\n");
}

/** The provider's side: a 500, then a step of thinking, text and three calls, then the answer. */
function script(mock: MockProvider): void {
  mock.enqueue(serverError());
  mock.enqueue({
    blocks: [
      { kind: "thinking", text: "Read the notes, then tidy them.", signature: "sig-golden-1" },
      { kind: "text", text: "Let me look at the notes." },
      { kind: "tool", id: "toolu_read", name: "read", input: { path: "notes.txt" } },
      { kind: "tool", id: "toolu_bash", name: "bash", input: { command: "echo hello" } },
      {
        kind: "tool",
        id: "toolu_write",
        name: "write",
        input: { path: "notes.txt", content: "- buy milk\n- fix the tests\n" },
      },
    ],
    usage: { input: 120, output: 40, cacheRead: 30 },
  });
  mock.enqueue({
    blocks: [
      { kind: "thinking", text: "The write was refused.", signature: "sig-golden-2" },
      { kind: "text", text: "The notes list two items; I could not rewrite them." },
    ],
    usage: { input: 200, output: 25 },
  });
}

interface Scripted {
  stdout: string;
  stderr: string;
  status: number | null;
  setup: ExecEnv;
  context: NormaliseContext;
}

/**
 * One run of the scripted session, on a fresh mock (so request ids start at 1); `input` is
 * stdin, and `more` what the mock answers after the script.
 */
async function scriptedExec(
  args: string[],
  input?: string,
  more: Script[] = [],
  env: Record<string, string> = {},
): Promise<Scripted> {
  const mock = await startMockProvider();
  try {
    const setup = execEnv(mock, "[retry]\ninitial_delay_ms = 1\nmax_delay_ms = 1");
    Object.assign(setup.env, env);
    project(setup);
    script(mock);
    mock.enqueue(...more);
    const run = await runExec(["--model", MODEL_OF.anthropic, "--trust", ...args], setup, input);
    const context = runContext(setup, mock.url);
    return { stdout: run.stdout, stderr: run.stderr, status: run.status, setup, context };
  } finally {
    await mock.close();
  }
}

const PROMPT = "tidy my notes";

describe("golden files of a scripted session", () => {
  it("exec text: the answer on stdout, thinking and notices on stderr", async () => {
    const run = await scriptedExec(["--show-thinking", PROMPT]);
    assert.equal(run.status, 0, run.stderr);
    matchGolden("exec-text.stdout.txt", normalise(run.stdout, run.context));
    matchGolden("exec-text.stderr.txt", normalise(run.stderr, run.context));
  });

  it("exec --output-format json: one result object", async () => {
    const run = await scriptedExec(["--output-format", "json", PROMPT]);
    assert.equal(run.status, 0, run.stderr);
    matchGolden("exec-json.stdout.json", normalise(run.stdout, run.context));
    matchGolden("exec-json.stderr.txt", normalise(run.stderr, run.context));
  });

  it("exec --output-format stream-json, and sessions show of the same session", async () => {
    const run = await scriptedExec(["--output-format", "stream-json", PROMPT]);
    assert.equal(run.status, 0, run.stderr);
    matchGolden("exec-stream-json.stdout.jsonl", normalise(run.stdout, run.context));
    matchGolden("exec-stream-json.stderr.txt", normalise(run.stderr, run.context));
    const id = String(jsonLines(run.stdout)[0]!.session_id);
    const show = runCli(["sessions", "show", id], { env: run.setup.env, cwd: run.setup.workspace });
    assert.equal(show.status, 0, show.stderr);
    matchGolden("sessions-show.txt", normalise(show.stdout, run.context));
    const json = runCli(["sessions", "show", id, "--json"], { env: run.setup.env });
    assert.equal(json.status, 0, json.stderr);
    matchGolden("sessions-show.json", normalise(json.stdout, run.context));
    // The derived views, without their receipt (it holds the time and a signature).
    for (const [format, marker] of [
      ["md", "<!-- codewhale-receipt {"],
      ["html", "<!-- codewhale-receipt -->"],
    ] as const) {
      const shown = runCli(["export", id, "--format", format], { env: run.setup.env });
      assert.equal(shown.status, 0, shown.stderr);
      const body = shown.stdout.slice(0, shown.stdout.lastIndexOf(marker));
      matchGolden(`export.${format}`, normalise(body, run.context));
    }
  });

  it("exec --input-format stream-json: two prompts, a result line (with its own figures) each", async () => {
    const input = [PROMPT, "and now?"].map((text) => JSON.stringify({ type: "user", text }));
    const second: Script = { blocks: [{ kind: "text", text: "Nothing else." }] };
    const stream = ["--input-format", "stream-json", "--output-format", "stream-json"];
    const run = await scriptedExec(stream, `${input.join("\n")}\n`, [second]);
    assert.equal(run.status, 0, run.stderr);
    matchGolden("exec-stdin-stream-json.stdout.jsonl", normalise(run.stdout, run.context));
    matchGolden("exec-stdin-stream-json.stderr.txt", normalise(run.stderr, run.context));
  });
});

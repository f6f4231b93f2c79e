// The prompt of `codewhale exec` and piped stdin, through the built CLI in a real shell: stdin
// appended to a prompt (a pipe, a redirected file), stdin as the prompt, the 1 MiB bound, and
// never a hang (a silent pipe, closed or empty stdin, a socket left open by a parent); plus the
// flag checks, `--max-budget-usd` with an unpriced model, and what `exec --help` ends with.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { STDIN_LIMIT_BYTES } from "../../src/cli/exec-prompt.ts";
import { cliPath, runCli } from "../support/cli.ts";
import { type ExecEnv, execEnv, MODEL_OF, runExec, spawnCli } from "../support/exec-harness.ts";
import { useMockProvider } from "../support/mock-provider/index.ts";

const mock = useMockProvider();

/** Runs a shell line with `$CW` as the exec command (anthropic model), in the workspace. */
function shell(line: string, setup: ExecEnv) {
  const cw = `${process.execPath} ${cliPath} exec --model ${MODEL_OF.anthropic}`;
  const child = spawn("sh", ["-c", line], {
    cwd: setup.workspace,
    env: { ...setup.env, CW: cw },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (data) => (stdout += String(data)));
  child.stderr.on("data", (data) => (stderr += String(data)));
  const started = Date.now();
  return new Promise<{ status: number | null; stdout: string; stderr: string; ms: number }>(
    (resolve) => {
      child.on("close", (status) => resolve({ status, stdout, stderr, ms: Date.now() - started }));
    },
  );
}

/** The user text of the last request the mock received. */
function lastPrompt(): string {
  const body = mock.requests.at(-1)?.body as { messages: Array<{ content: unknown }> };
  const content = body.messages[0]?.content;
  if (typeof content === "string") return content;
  return (content as Array<{ text?: string }>).map((block) => block.text ?? "").join("");
}

const answer = () => mock.enqueue({ blocks: [{ kind: "text", text: "Summary." }] });

describe("exec: piped stdin", () => {
  it('`cat log | exec "summarise this"` appends stdin to the prompt', async () => {
    const setup = execEnv(mock);
    writeFileSync(join(setup.workspace, "build.log"), "step 1 ok\nstep 2 FAILED\n");
    answer();
    const run = await shell('cat build.log | $CW "summarise this"', setup);
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout, "Summary.\n");
    assert.equal(lastPrompt(), "summarise this\n\n<stdin>\nstep 1 ok\nstep 2 FAILED\n</stdin>");
  });

  it("a redirected file is appended; `echo x | exec` with no prompt reads the prompt", async () => {
    const setup = execEnv(mock);
    writeFileSync(join(setup.workspace, "notes.txt"), "buy milk");
    answer();
    const redirected = await shell('$CW "tidy" < notes.txt', setup);
    assert.equal(redirected.status, 0, redirected.stderr);
    assert.equal(lastPrompt(), "tidy\n\n<stdin>\nbuy milk\n</stdin>");
    answer();
    const piped = await shell('echo "what is 2+2" | $CW', setup);
    assert.equal(piped.status, 0, piped.stderr);
    assert.equal(lastPrompt(), "what is 2+2\n");
  });

  it("past 1 MiB: the first 1 MiB is added, marked as cut, with one notice", async () => {
    const setup = execEnv(mock);
    answer();
    const bytes = STDIN_LIMIT_BYTES + 4096;
    const run = await shell(`head -c ${bytes} /dev/zero | tr '\\0' a | $CW "count"`, setup);
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stderr, /stdin is over 1,048,576 bytes: only the first 1,048,576 were added/);
    const prompt = lastPrompt();
    assert.equal(/a+/.exec(prompt)?.[0].length, STDIN_LIMIT_BYTES);
    assert.ok(prompt.endsWith("\n[stdin truncated after 1,048,576 bytes]\n</stdin>"));
  });

  it("never hangs: empty, closed, a socket left open, a silent pipe (waited for 3 s)", async () => {
    const setup = execEnv(mock);
    answer();
    const empty = await shell(': | $CW "hi"', setup);
    assert.equal(empty.status, 0, empty.stderr);
    assert.equal(lastPrompt(), "hi");
    answer();
    const closed = await shell('$CW "hi" <&-', setup);
    assert.equal(closed.status, 0, closed.stderr);
    answer();
    // The harness's stdin is a socket that it never writes to nor closes.
    const open = spawnCli(["exec", "--model", MODEL_OF.anthropic, "hi"], setup);
    const openRun = await open.done;
    assert.equal(openRun.status, 0, openRun.stderr);
    assert.doesNotMatch(openRun.stderr, /nothing arrived on stdin/, "a socket is not waited on");
    answer();
    // A writer that holds the pipe open and says nothing (its own stdio elsewhere).
    const silent = await shell('mkfifo p; (sleep 8 >p 2>/dev/null &); $CW "hi" <p', setup);
    assert.equal(silent.status, 0, silent.stderr);
    assert.match(silent.stderr, /nothing arrived on stdin in 3 s, going on without it/);
    assert.equal(lastPrompt(), "hi");
  });

  it("an empty stdin with no prompt is a usage error, exit 2, no request", async () => {
    const setup = execEnv(mock);
    const requests = mock.requests.length;
    const run = await shell('printf "  \\n" | $CW', setup);
    assert.equal(run.status, 2);
    assert.match(run.stderr, /^codewhale: a prompt is required/);
    assert.equal(mock.requests.length, requests);
  });
});

describe("exec: flags a person can get wrong", () => {
  it("flags with a bad value name the flag and what it takes, exit 2", () => {
    const home = mkdtempSync(join(tmpdir(), "cw-exec-flags-"));
    const cases: Array<[string[], string]> = [
      [["--max-steps", "abc"], "--max-steps must be a positive integer"],
      [["--max-steps", "0"], "--max-steps must be a positive integer"],
      [["--max-steps", "2.5"], "--max-steps must be a positive integer"],
      [["--max-budget-usd", "ten"], "--max-budget-usd must be a positive number of US dollars"],
      [["--max-budget-usd", "-1"], "--max-budget-usd must be a positive number of US dollars"],
      [["--show-thinking", "--hide-thinking"], "use --show-thinking or --hide-thinking, not both"],
      [
        ["--model", "claude"],
        '--model must be "provider/model", such as anthropic/claude-sonnet-4-5',
      ],
      [
        ["--allow", "bash("],
        `--allow must be a permission rule such as 'bash(npm test)': malformed permission rule "bash(": expected "tool" or "tool(specifier)", e.g. "bash(npm test)"`,
      ],
    ];
    for (const [flags, message] of cases) {
      const run = runCli(["exec", ...flags, "hi"], { env: { CODEWHALE_HOME: home } });
      assert.equal(run.status, 2, `${flags.join(" ")}: ${run.stderr}`);
      assert.equal(run.stderr, `codewhale: ${message}\n`);
    }
  });

  it("--max-budget-usd with a model whose prices are unknown is refused before any request", async () => {
    const setup = execEnv(mock);
    const requests = mock.requests.length;
    const args = ["--model", MODEL_OF["openai-chat"], "--max-budget-usd", "1", "hi"];
    const run = await runExec(args, setup);
    assert.equal(run.status, 2);
    assert.match(
      run.stderr,
      /^codewhale: --max-budget-usd needs the prices of local\/llama3, which are unknown: set input_price and output_price under \[models."local\/llama3"\] in your config\n$/,
    );
    assert.equal(mock.requests.length, requests);
    answer();
    const priced = await runExec(
      ["--model", MODEL_OF.anthropic, "--max-budget-usd", "1", "hi"],
      setup,
    );
    assert.equal(priced.status, 0, priced.stderr);
  });

  it("exec --help lists the exit codes and two examples", () => {
    const run = runCli(["exec", "--help"]);
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /Exit codes:\n\s+0 +the task completed/);
    for (const code of ["1", "2", "130"])
      assert.match(run.stdout, new RegExp(`\\n\\s+${code} +\\S`));
    const examples = run.stdout.split("Examples:\n")[1] ?? "";
    assert.equal(examples.match(/^ {2}\$ .*codewhale exec .+$/gm)?.length, 2, run.stdout);
    assert.match(run.stdout, /--quiet/);
    assert.match(run.stdout, /--hide-thinking/);
  });
});

// `codewhale exec` end to end: the built CLI runs a scripted task against the loopback mock
// provider (one `bash` call whose command prints ~2.2 MB of coloured, `\r`-overwritten output
// with two secret-shaped lines, then a final answer). Wall time (median of BENCH_E2E_RUNS,
// default 5, after a warm-up) and peak RSS (GNU `/usr/bin/time -v`) beside bare `node -e 0` and
// the same exec answering without a tool call, in the same run. Each task run is checked: exit
// 0, the logged tool result truncated with the marker and both secrets redacted (and neither
// secret anywhere in the log), and no checkpoint taken (`cat` only reads). Imported by bench/run.ts.
import { spawn, spawnSync } from "node:child_process";
import { randomBytes, randomInt } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { sessionPath } from "../src/session/paths.ts";
import { readSession } from "../src/session/reader.ts";
import { cliPath } from "../test/support/cli.ts";
import { type MockProvider, startMockProvider } from "../test/support/mock-provider/index.ts";

const RUNS = Math.max(1, Number(process.env.BENCH_E2E_RUNS ?? 5));
const TARGET_BYTES = 2.2 * 1000 * 1000;
const ANSWER = "The build log is summarised above.";
const TIME = "/usr/bin/time";

/**
 * The generator the model's `bash` call runs: coloured compiler and test lines, `\r` progress
 * overwrites, and the two secrets read from secrets.json (one in the head, one in the tail, so
 * both reach the delivered text and only redaction can hide them).
 */
const GENERATOR = `
const { aws, github } = JSON.parse(require("node:fs").readFileSync("secrets.json", "utf8"));
const total = Number(process.argv[2]);
const out = [];
let size = 0;
const push = (line) => { out.push(line); size += Buffer.byteLength(line) + 1; };
for (let i = 0; size < total; i++) {
  if (i === 40) push("export AWS_ACCESS_KEY_ID=" + aws);
  if (i % 5 === 0) push("\\x1b[32m✓\\x1b[0m test case " + i + " passes \\x1b[2m(" + (i % 40) + "ms)\\x1b[22m");
  else if (i % 5 === 1) push("building " + (i % 10) + "0%\\rbuilding " + (i % 10) + "5%\\rbuilding 100%");
  else if (i % 5 === 2) push("\\x1b[1m\\x1b[31mFAIL\\x1b[39m\\x1b[22m src/feature" + (i % 40) + ".test.ts");
  else if (i % 5 === 3) push("[" + i + "] INFO compiling src/module" + (i % 300) + ".ts ... ok");
  else push("\\x1b[33mwarn\\x1b[0m deprecated option in packages/app" + (i % 17) + "/tsconfig.json");
}
out.splice(out.length - 30, 0, "Cloning with token " + github + " ...");
process.stdout.write(out.join("\\n") + "\\n");
`;

interface Secrets {
  aws: string;
  github: string;
}

interface Run {
  ms: number;
  rssMb: number;
  status: number | null;
  stdout: string;
  stderr: string;
}

export async function benchExecEndToEnd(): Promise<string[]> {
  if (!existsSync(TIME)) {
    throw new Error(`${TIME} is missing: install Debian's \`time\` package (apt-get install time)`);
  }
  const mock = await startMockProvider();
  const dir = mkdtempSync(join(tmpdir(), "cw-bench-exec-"));
  try {
    const setup = prepare(dir, mock);
    // Warm-up: the page cache, and the first run writes the compile cache the others use.
    await execOnce(setup, mock);
    const node: Run[] = [];
    const exec: Run[] = [];
    const answerOnly: Run[] = [];
    const cold: Run[] = [];
    for (let i = 0; i < RUNS; i++) {
      node.push(await timedChild([process.execPath, "-e", "0"], dir, {}));
      exec.push(await execOnce(setup, mock));
      answerOnly.push(await execOnce(setup, mock, false));
      cold.push(await execOnce(setup, mock, true, { CODEWHALE_COMPILE_CACHE: "0" }));
    }
    const n = median(node.map((run) => run.ms));
    const e = median(exec.map((run) => run.ms));
    const a = median(answerOnly.map((run) => run.ms));
    const c = median(cold.map((run) => run.ms));
    const rss = exec.map((run) => run.rssMb);
    const ms = (runs: Run[]) => spread(runs.map((run) => run.ms));
    const mb = (runs: Run[]) => spread(runs.map((run) => run.rssMb));
    return [
      `exec end to end: 2.2 MB bash output task: ${e.toFixed(0)} ms (${(e / n).toFixed(1)}× bare node ${n.toFixed(0)} ms), peak RSS ${Math.max(...rss).toFixed(0)} MB (target ≤ 8×, ≤ 120 MB)`,
      `  median of ${RUNS}; runs: task ${ms(exec)} ms, ${mb(exec)} MB; node -e 0 ${ms(node)} ms, ${mb(node)} MB`,
      `  same exec answering at once (no tool call): ${a.toFixed(0)} ms (${(a / n).toFixed(1)}× bare node; runs ${ms(answerOnly)} ms), peak RSS ${mb(answerOnly)} MB`,
      `  same task without the compile cache (a first run): ${c.toFixed(0)} ms (${(c / n).toFixed(1)}× bare node; runs ${ms(cold)} ms), peak RSS ${mb(cold)} MB`,
    ];
  } finally {
    await mock.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

interface Setup {
  home: string;
  workspace: string;
  env: Record<string, string>;
  secrets: Secrets;
}

/** A temp home whose config points the `local` provider at the mock, and the workspace. */
function prepare(dir: string, mock: MockProvider): Setup {
  const home = join(dir, "home");
  const workspace = join(dir, "ws");
  mkdirSync(home);
  mkdirSync(workspace);
  const config = [
    'model = "local/claude-mock-1"',
    "[providers.local]",
    'kind = "anthropic"',
    `base_url = "${mock.url}"`,
    'api_key_env = "LOCAL_API_KEY"',
  ].join("\n");
  writeFileSync(join(home, "config.toml"), `${config}\n`);
  const secrets = {
    aws: `AKIA${randomChars(UPPER_DIGITS, 16)}`,
    github: `ghp_${randomChars(ALNUM, 36)}`,
  };
  writeFileSync(join(workspace, "secrets.json"), JSON.stringify(secrets));
  writeFileSync(join(workspace, "gen.cjs"), GENERATOR);
  // The output is produced once, up front: the task's command only prints it, so the figure
  // measures codewhale, not a generator process.
  const generated = spawnSync(process.execPath, ["gen.cjs", String(TARGET_BYTES)], {
    cwd: workspace,
    maxBuffer: 64 * 1024 * 1024,
  });
  if (generated.status !== 0) throw new Error("the output generator failed");
  writeFileSync(join(workspace, "build.log"), generated.stdout);
  const env = {
    PATH: process.env.PATH ?? "",
    CODEWHALE_HOME: home,
    LOCAL_API_KEY: `sk-ant-api03-${randomBytes(24).toString("base64url")}`,
  };
  return { home, workspace, env, secrets };
}

const UPPER_DIGITS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
const ALNUM = `${UPPER_DIGITS}abcdefghijklmnopqrstuvwxyz`;

function randomChars(alphabet: string, length: number): string {
  let out = "";
  for (let i = 0; i < length; i++) out += alphabet[randomInt(alphabet.length)];
  return out;
}

/**
 * One scripted task through the built CLI (with `withTool` false, the model answers at once);
 * throws unless the run did what it should.
 */
async function execOnce(
  setup: Setup,
  mock: MockProvider,
  withTool = true,
  env: Record<string, string> = {},
): Promise<Run> {
  const command = "cat build.log";
  if (withTool) {
    mock.enqueue({ blocks: [{ kind: "tool", id: "toolu_1", name: "bash", input: { command } }] });
  }
  mock.enqueue({ blocks: [{ kind: "text", text: ANSWER }] });
  const args = [cliPath, "exec", "--permission-mode", "bypass", "--output-format", "json"];
  const run = await timedChild(
    [process.execPath, ...args, "summarise the build log"],
    setup.workspace,
    { ...setup.env, ...env },
  );
  verify(run, setup, withTool);
  return run;
}

function verify(run: Run, setup: Setup, withTool: boolean): void {
  if (run.status !== 0) throw new Error(`exec exited ${run.status}: ${run.stderr}`);
  const result = JSON.parse(run.stdout) as { session_id: string; result: string };
  if (result.result !== ANSWER) throw new Error(`exec answered ${JSON.stringify(result.result)}`);
  if (!withTool) return;
  const log = sessionPath(join(setup.home, "sessions"), result.session_id);
  const events = readSession(log).events;
  const tool = events.find((event) => event.type === "tool/result");
  if (tool?.type !== "tool/result") throw new Error("no tool/result in the session log");
  const checks: Array<[string, boolean]> = [
    ["the original output is about 2.2 MB", tool.original_bytes >= TARGET_BYTES],
    ["truncated", tool.truncated],
    [
      "has the truncation marker",
      /\n\[… \d+ lines \(\d+ bytes\) omitted; original output /.test(tool.content),
    ],
    ["redacts the AWS key", tool.content.includes("[REDACTED:aws_access_key_id]")],
    ["redacts the GitHub token", tool.content.includes("[REDACTED:github_token]")],
    ["takes no checkpoint (`cat` only reads)", !events.some((e) => e.type === "checkpoint/taken")],
    [
      "has no control sequence left",
      !tool.content.includes("\x1b") && !tool.content.includes("\r"),
    ],
  ];
  const raw = readFileSync(log, "utf8");
  checks.push([
    "the log holds neither secret",
    !raw.includes(setup.secrets.aws) && !raw.includes(setup.secrets.github),
  ]);
  const failed = checks.filter(([, ok]) => !ok).map(([what]) => what);
  if (failed.length > 0)
    throw new Error(`exec end to end: tool result fails: ${failed.join(", ")}`);
}

/** Runs argv under `time -v` (asynchronously: the mock shares this event loop). */
function timedChild(argv: string[], cwd: string, env: Record<string, string>): Promise<Run> {
  const started = performance.now();
  const child = spawn(TIME, ["-v", ...argv], {
    cwd,
    env: { PATH: process.env.PATH ?? "", ...env },
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (data) => {
    stdout += String(data);
  });
  child.stderr.on("data", (data) => {
    stderr += String(data);
  });
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (status) => {
      const ms = performance.now() - started;
      // time -v reports the largest of the process and the children it waited for; exec's own
      // peak is the larger here (the generator is a bare node printing 2.2 MB).
      const kb = Number(
        /Maximum resident set size \(kbytes\): (\d+)/.exec(stderr)?.[1] ?? Number.NaN,
      );
      resolve({ ms, rssMb: kb / 1024, status, stdout, stderr });
    });
  });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function spread(values: number[]): string {
  return `${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)}`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const line of await benchExecEndToEnd()) process.stdout.write(`${line}\n`);
}

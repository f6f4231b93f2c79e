// The interactive terminal at work, under tmux against the loopback mock provider, each beside
// a same-run baseline: prompt sent to answer shown (the bench task), a 10,000-line answer and
// a 5 MB tool output beside `codewhale exec --output-format text` (time, peak RSS), keystroke
// to echo while an answer streams (on a pty: tui-keys.ts). Method: docs/benchmarks.md. Called
// by tui.ts.
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cliPath } from "../test/support/cli.ts";
import { type ExecEnv, execEnv, MODEL_OF } from "../test/support/exec-harness.ts";
import {
  type MockProvider,
  type Script,
  startMockProvider,
} from "../test/support/mock-provider/index.ts";
import { childOf, startTmux, type TmuxScreen } from "../test/support/tmux.ts";
import { codewhaleArgs, echoProgram as echoKeys, ptyAvailable, ptyKeys } from "./tui-keys.ts";

const QUICK = process.env.BENCH_QUICK === "1";
const RUNS = Number(process.env.BENCH_RUNS ?? (QUICK ? 3 : 7));
const ANSWER_LINES = QUICK ? 2_000 : 10_000;
const TOOL_BYTES = QUICK ? 1_000_000 : 5_000_000;
const KEYSTROKES = QUICK ? 15 : 40;
const KEY_ROUNDS = QUICK ? 1 : 3;
const STREAM_LINES = 2_000;
const MODEL = MODEL_OF.anthropic;

const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
const median = (values: number[]) => sorted(values)[values.length >> 1] ?? Number.NaN;
const p99 = (values: number[]) =>
  sorted(values)[Math.min(values.length - 1, Math.ceil(values.length * 0.99) - 1)] ?? Number.NaN;
const ms = (value: number) => `${value.toFixed(0)} ms`;
const mb = (kib: number) => `${(kib / 1024).toFixed(0)} MB`;

/**
 * Polls the pane as fast as tmux answers, letting the event loop (the mock provider) run
 * between reads; the time the text was first seen.
 */
async function seen(
  screen: TmuxScreen,
  done: (text: string) => boolean,
  timeoutMs = 120_000,
): Promise<number> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const text = screen.screen();
    if (done(text)) return performance.now();
    if (Date.now() > until) throw new Error(`never shown:\n${text}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** Polls `mock.requests` until it has `count`; the time it was seen. */
async function requested(mock: MockProvider, count: number): Promise<number> {
  const until = Date.now() + 60_000;
  while (mock.requests.length < count) {
    if (Date.now() > until) throw new Error("the request never came");
    await new Promise((resolve) => setImmediate(resolve));
  }
  return performance.now();
}

function peakRssKiB(pid: number): number {
  const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return Number(match?.[1] ?? Number.NaN);
}

async function chat(setup: ExecEnv, args: string[] = []): Promise<TmuxScreen> {
  const screen = startTmux(["--model", MODEL, "--permission-mode", "bypass", ...args], {
    env: setup.env,
    cwd: setup.workspace,
    columns: 100,
    rows: 30,
  });
  await seen(screen, (text) => text.includes("/help"), 30_000);
  return screen;
}

function say(screen: TmuxScreen, text: string): number {
  screen.type(text);
  const at = performance.now();
  screen.keys("Enter");
  return at;
}

/** A fresh call id: one session may run a task more than once (the mock checks ids are unique). */
let calls = 0;
const callId = () => `toolu_${++calls}`;

const bashTask = (name: string): Script[] => [
  { blocks: [{ kind: "tool", id: callId(), name: "bash", input: { command: "echo hi" } }] },
  { blocks: [{ kind: "text", text: `${name} done` }] },
];

/** `count` lines of Markdown: a heading and a 49-item list per section, as an answer has. */
const longAnswer = (count = ANSWER_LINES): Script => {
  const lines: string[] = [];
  for (let i = 0; lines.length < count; i++) {
    if (i % 50 === 0) lines.push("", `### Section ${i / 50 + 1}`, "");
    else lines.push(`- line ${i} of the long answer, with \`code\` and **bold** words`);
  }
  lines.length = count;
  return {
    blocks: [{ kind: "text", text: `${lines.join("\n")}\n\nEND-OF-ANSWER` }],
    chunkSize: 16,
  };
};

const bigTool = (): Script[] => {
  const lines = Math.ceil(TOOL_BYTES / 50);
  const command = `yes 'tool output line with some words in it, fifty bytes' | head -n ${lines}`;
  return [
    { blocks: [{ kind: "tool", id: callId(), name: "bash", input: { command } }] },
    { blocks: [{ kind: "text", text: "TOOL-DONE" }] },
  ];
};

/** One scenario in the interactive terminal: request seen → marker shown, and peak RSS. */
async function inChat(mock: MockProvider, setup: ExecEnv, scripts: Script[], marker: string) {
  const screen = await chat(setup);
  try {
    const before = mock.requests.length;
    mock.enqueue(...scripts);
    say(screen, "go");
    const start = await requested(mock, before + 1);
    const end = await seen(screen, (text) => text.includes(marker) && text.includes("/help"));
    return { ms: end - start, rss: peakRssKiB(childOf(screen.panePid())) };
  } finally {
    screen.kill();
  }
}

/** The same scenario through `codewhale exec --output-format text` in tmux. */
async function inExec(mock: MockProvider, setup: ExecEnv, scripts: Script[], marker: string) {
  const rssFile = join(setup.home, `rss-${Date.now()}`);
  const before = mock.requests.length;
  mock.enqueue(...scripts);
  const exec = [process.execPath, cliPath, "exec", "--output-format", "text"];
  const screen = startTmux([], {
    env: setup.env,
    cwd: setup.workspace,
    columns: 100,
    rows: 30,
    command: [
      "/usr/bin/time",
      "-o",
      rssFile,
      "-f",
      "%M",
      ...exec,
      "--model",
      MODEL,
      "--permission-mode",
      "bypass",
      "go",
    ],
  });
  try {
    const start = await requested(mock, before + 1);
    const end = await seen(screen, (text) => text.includes(marker));
    await seen(screen, (text) => text.includes("EXITED"));
    return { ms: end - start, rss: Number(readFileSync(rssFile, "utf8").trim()) };
  } finally {
    screen.kill();
  }
}

/** A node program that echoes what is typed, line by line: tmux's own latency. */
async function echoProgram(setup: ExecEnv): Promise<TmuxScreen> {
  const file = join(setup.workspace, "echo.cjs");
  writeFileSync(
    file,
    "process.stdin.setRawMode(true);process.stdin.on('data',d=>process.stdout.write(String(d).replace(/\\r/g,'\\r\\n')));process.stdout.write('ready\\n');",
  );
  const screen = startTmux([], {
    env: setup.env,
    cwd: setup.workspace,
    command: [process.execPath, file],
  });
  await seen(screen, (text) => text.includes("ready"), 30_000);
  return screen;
}

/** Adds lines to the benchmark's output. */
type Report = (...lines: string[]) => void;

/** Runs `section` against a mock provider and a temp home of its own. */
async function withMock(
  section: (mock: MockProvider, setup: ExecEnv, out: Report) => Promise<void>,
  out: Report,
): Promise<void> {
  const mock = await startMockProvider();
  try {
    await section(mock, execEnv(mock), out);
  } finally {
    await mock.close();
  }
}

export async function benchTuiRender(): Promise<string[]> {
  const out: string[] = [];
  const report: Report = (...lines) => {
    out.push(...lines);
    if (process.env.BENCH_PROGRESS === "1") process.stderr.write(`${lines.join("\n")}\n`);
  };
  // BENCH_TUI=prompt,outputs,keys runs only those sections.
  const only = process.env.BENCH_TUI?.split(",");
  const sections = { prompt: promptToAnswer, outputs: longOutputs, keys: keystrokeLatency };
  for (const [name, section] of Object.entries(sections)) {
    if (!only || only.includes(name)) await withMock(section, report);
  }
  return out;
}

async function promptToAnswer(mock: MockProvider, setup: ExecEnv, out: Report): Promise<void> {
  {
    // (1) Prompt sent to answer shown: a session's first prompt (typed a second after the
    // first frame, as a person would), then a second prompt in the same session.
    const first: number[] = [];
    const later: number[] = [];
    const echo: number[] = [];
    const task = async (screen: TmuxScreen, name: string) => {
      mock.enqueue(...bashTask(name));
      const sent = say(screen, name);
      return (
        (await seen(screen, (text) => text.includes(`${name} done`) && text.includes("/help"))) -
        sent
      );
    };
    for (let i = 0; i < RUNS; i++) {
      const screen = await chat(setup);
      await new Promise((resolve) => setTimeout(resolve, 1000));
      first.push(await task(screen, `first${i}`));
      later.push(await task(screen, `later${i}`));
      screen.kill();
      const plain = await echoProgram(setup);
      const at = performance.now();
      plain.type(`task ${i}`);
      plain.keys("Enter");
      echo.push(
        (await seen(
          plain,
          (text) => text.split("\n").filter((l) => l === `task ${i}`).length >= 1,
        )) - at,
      );
      plain.kill();
    }
    out(
      `prompt sent to answer shown, the bench task (one bash call, then "done"; median of ${RUNS}): a session's first prompt ${ms(median(first))}, a later prompt ${ms(median(later))} (target <= 200 ms)`,
      `  baseline: a line typed into a plain node program under tmux, Enter to echo: ${ms(median(echo))}`,
    );
  }
}

async function longOutputs(mock: MockProvider, setup: ExecEnv, out: Report): Promise<void> {
  // (2) and (3): streamed answer and big tool output, beside exec.
  for (const [name, scripts, marker] of [
    [`a ${ANSWER_LINES}-line streamed answer`, () => [longAnswer()], "END-OF-ANSWER"],
    [`a ${(TOOL_BYTES / 1e6).toFixed(0)} MB tool output`, bigTool, "TOOL-DONE"],
  ] as const) {
    const tui = { ms: [] as number[], rss: [] as number[] };
    const exec = { ms: [] as number[], rss: [] as number[] };
    for (let i = 0; i < Math.max(1, RUNS >> 1); i++) {
      const a = await inChat(mock, setup, scripts(), marker);
      tui.ms.push(a.ms);
      tui.rss.push(a.rss);
      const b = await inExec(mock, setup, scripts(), marker);
      exec.ms.push(b.ms);
      exec.rss.push(b.rss);
    }
    out(
      `${name}, request to last line shown (median of ${tui.ms.length}, alternating): interactive ${ms(median(tui.ms))}, peak RSS ${mb(median(tui.rss))}; exec --output-format text ${ms(median(exec.ms))}, peak RSS ${mb(median(exec.rss))}`,
    );
  }
}

async function keystrokeLatency(mock: MockProvider, setup: ExecEnv, out: Report): Promise<void> {
  // (4) Keystroke to echo while a long answer streams, on a pty with nothing between
  // (tui-keys.ts): the stream, the idle editor and a plain echo program, alternating.
  if (!ptyAvailable())
    return out("keystroke to echo: python3 (with its pty module) is not installed: skipped");
  // About 30 s of streaming at 4 characters an event: longer than the keystrokes take.
  const slow: Script = { ...longAnswer(STREAM_LINES), chunkSize: 4, delayMs: 1 };
  const program = codewhaleArgs(MODEL);
  const ready = "/help";
  const runs = { busy: [] as number[], idle: [] as number[], base: [] as number[] };
  let ended = false;
  for (let round = 0; round < KEY_ROUNDS; round++) {
    mock.enqueue(slow);
    const busy = await ptyKeys(
      program,
      { ready, keys: KEYSTROKES, send: "stream\r", until: "line 101 of", still: "END-OF-ANSWER" },
      setup.env,
      setup.workspace,
    );
    runs.busy.push(...busy.times);
    ended ||= !busy.streaming;
    const idle = await ptyKeys(program, { ready, keys: KEYSTROKES }, setup.env, setup.workspace);
    runs.idle.push(...idle.times);
    const echo = echoKeys(setup);
    const base = await ptyKeys(
      echo,
      { ready: "ready", keys: KEYSTROKES },
      setup.env,
      setup.workspace,
    );
    runs.base.push(...base.times);
  }
  const stat = (values: number[]) =>
    `median ${median(values).toFixed(1)} ms, p99 ${p99(values).toFixed(1)} ms`;
  out(
    `keystroke to echo on a pty while a long answer streams (${runs.busy.length} keys in ${KEY_ROUNDS} sessions${ended ? "; a stream ended before its last key" : ""}): ${stat(runs.busy)} (target median <= 16 ms, p99 <= 50 ms)`,
    `  baselines, same pty method: the idle editor ${stat(runs.idle)}; a plain node program echoing keys ${stat(runs.base)}`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  spawnSync(process.execPath, ["scripts/build.mjs"], { stdio: "inherit" });
  for (const line of await benchTuiRender()) process.stdout.write(`${line}\n`);
}

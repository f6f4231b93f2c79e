// Benchmarks of the interactive terminal. Start-up to the first settled frame under tmux:
// from starting the tmux session to the screen showing the input editor and the status line
// and not changing for 50 ms; and to the first key echoed: a key typed as soon as that frame
// shows, until the editor shows it; beside a tmux session running `node -e` that prints one
// word (tmux and node alone), `node -e 0` and `codewhale --version`, alternating, median of
// BENCH_RUNS (default 9); loading dist/tui.cjs; then the terminal at work (tui-render.ts).
// The target: the first settled frame within 2× the tmux + node baseline of the same run.
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cliPath } from "../test/support/cli.ts";
import { startTmux, type TmuxScreen, tmuxAvailable } from "../test/support/tmux.ts";
import { benchTuiRender } from "./tui-render.ts";

const RUNS = Number(process.env.BENCH_RUNS ?? (process.env.BENCH_QUICK === "1" ? 3 : 9));
const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1] ?? NaN;

function spawnMs(args: string[], env: Record<string, string>): number {
  const started = performance.now();
  const run = spawnSync(process.execPath, args, { env, stdio: "ignore" });
  if (run.status !== 0) throw new Error(`${args.join(" ")} exited ${run.status}`);
  return performance.now() - started;
}

/** Polls until `done(screen)` holds and the screen stays the same for `settleMs`. */
async function settled(screen: TmuxScreen, done: (text: string) => boolean, settleMs = 50) {
  const until = Date.now() + 30_000;
  let last = "";
  let since = 0;
  for (;;) {
    const now = screen.screen();
    const at = performance.now();
    if (now !== last || !done(now)) {
      last = now;
      since = at;
    } else if (at - since >= settleMs) {
      return since;
    }
    if (Date.now() > until) throw new Error(`never settled:\n${now}`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

function benchEnv(): { env: Record<string, string>; cwd: string } {
  const home = mkdtempSync(join(tmpdir(), "cw-bench-tui-home-"));
  const cwd = mkdtempSync(join(tmpdir(), "cw-bench-tui-ws-"));
  // A provider that is never called: nothing is sent before the first prompt.
  const config = '[providers.local]\nkind = "openai-chat"\nbase_url = "http://127.0.0.1:9/v1"\n';
  writeFileSync(join(home, "config.toml"), config);
  return { env: { PATH: process.env.PATH ?? "", CODEWHALE_HOME: home, LOCAL_API_KEY: "x" }, cwd };
}

async function firstFrame(env: Record<string, string>, cwd: string): Promise<number> {
  const started = performance.now();
  const screen = startTmux(["--model", "local/bench"], { env, cwd });
  try {
    return (await settled(screen, (text) => text.includes("/help"))) - started;
  } finally {
    screen.kill();
  }
}

/** From start to a key, typed as soon as the frame shows, shown in the editor. */
async function firstKey(env: Record<string, string>, cwd: string): Promise<number> {
  const started = performance.now();
  const screen = startTmux(["--model", "local/bench"], { env, cwd });
  try {
    await poll(() => screen.screen().includes("/help"));
    screen.type("x");
    await poll(() => /^ x$/m.test(screen.screen()));
    return performance.now() - started;
  } finally {
    screen.kill();
  }
}

async function poll(done: () => boolean): Promise<void> {
  const until = Date.now() + 30_000;
  while (!done()) {
    if (Date.now() > until) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

async function tmuxNode(env: Record<string, string>, cwd: string): Promise<number> {
  const started = performance.now();
  const screen = startTmux([], {
    env,
    cwd,
    command: [process.execPath, "-e", "process.stdout.write('ready')"],
  });
  try {
    return (await settled(screen, (text) => text.includes("ready"))) - started;
  } finally {
    screen.kill();
  }
}

export async function benchTui(): Promise<string[]> {
  if (!tmuxAvailable()) return ["tmux is not installed: skipped"];
  const { env, cwd } = benchEnv();
  const rows = {
    frame: [] as number[],
    key: [] as number[],
    tmuxNode: [] as number[],
    node: [] as number[],
    version: [] as number[],
    load: [] as number[],
  };
  // Writes the code caches, as any second start has them.
  await firstFrame(env, cwd);
  const load = `require(${JSON.stringify(join(cliPath, "../../dist/tui.cjs"))})`;
  for (let i = 0; i < RUNS; i++) {
    rows.node.push(spawnMs(["-e", "0"], env));
    rows.version.push(spawnMs([cliPath, "--version"], env));
    rows.load.push(spawnMs(["-e", load], env));
    rows.tmuxNode.push(await tmuxNode(env, cwd));
    rows.frame.push(await firstFrame(env, cwd));
    rows.key.push(await firstKey(env, cwd));
  }
  const ms = (values: number[]) => `${median(values).toFixed(0)} ms`;
  return [
    `first settled frame under tmux (median of ${RUNS}, alternating; the frame is settled 50 ms after its last change, which is not counted)`,
    `  codewhale (interactive)     ${ms(rows.frame)}`,
    `  tmux + node printing a word ${ms(rows.tmuxNode)}  (baseline: tmux and node alone)`,
    `  ratio                       ${(median(rows.frame) / median(rows.tmuxNode)).toFixed(2)}×  (target <= 2×)`,
    `first key echoed under tmux (a key typed as the frame shows, until the editor shows it): ${ms(rows.key)}`,
    `  node -e 0 ${ms(rows.node)}; codewhale --version ${ms(rows.version)}; node -e "require('dist/tui.cjs')" ${ms(rows.load)}`,
    ...(await benchTuiRender()),
  ];
}

// Benchmarks of the interactive terminal's input: a 2,400-line paste until the editor shows it
// collapsed (`[pasted 2,400 lines]`), beside a one-line paste until it is echoed, in the same
// tmux session; and the first settled frame with a full prompt history (1,000 entries) beside
// one with none, alternating. Median of BENCH_RUNS (default 9; 3 with BENCH_QUICK=1).
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startTmux, type TmuxScreen, tmuxAvailable } from "../test/support/tmux.ts";

const RUNS = Number(process.env.BENCH_RUNS ?? (process.env.BENCH_QUICK === "1" ? 3 : 9));
const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1] ?? NaN;

async function until(screen: TmuxScreen, done: (text: string) => boolean): Promise<number> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const text = screen.screen();
    if (done(text)) return performance.now();
    if (Date.now() > deadline) throw new Error(`never shown:\n${text}`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

function benchEnv(history: number): { env: Record<string, string>; cwd: string } {
  const home = mkdtempSync(join(tmpdir(), "cw-bench-input-home-"));
  const cwd = mkdtempSync(join(tmpdir(), "cw-bench-input-ws-"));
  const config = '[providers.local]\nkind = "openai-chat"\nbase_url = "http://127.0.0.1:9/v1"\n';
  writeFileSync(join(home, "config.toml"), config);
  const lines = Array.from({ length: history }, (_, index) =>
    JSON.stringify({ ts: "2026-12-01T00:00:00Z", project: cwd, text: `prompt number ${index}` }),
  );
  if (history > 0)
    writeFileSync(join(home, "history.jsonl"), `${lines.join("\n")}\n`, { mode: 0o600 });
  return { env: { PATH: process.env.PATH ?? "", CODEWHALE_HOME: home, LOCAL_API_KEY: "x" }, cwd };
}

async function firstFrame(history: number): Promise<number> {
  const { env, cwd } = benchEnv(history);
  const started = performance.now();
  const screen = startTmux(["--model", "local/bench"], { env, cwd });
  try {
    return (await until(screen, (text) => text.includes("/help"))) - started;
  } finally {
    screen.kill();
  }
}

export async function benchTuiInput(): Promise<string[]> {
  if (!tmuxAvailable()) return ["tmux is not installed: skipped"];
  const { env, cwd } = benchEnv(0);
  const screen = startTmux(["--model", "local/bench"], { env, cwd });
  const big = Array.from({ length: 2400 }, (_, index) => `line ${index} of a pasted log`).join(
    "\n",
  );
  const rows = {
    big: [] as number[],
    small: [] as number[],
    full: [] as number[],
    empty: [] as number[],
  };
  try {
    await until(screen, (text) => text.includes("/help"));
    for (let i = 0; i < RUNS; i++) {
      const word = `word${i}x`;
      let started = performance.now();
      screen.paste(word);
      rows.small.push((await until(screen, (text) => text.includes(word))) - started);
      screen.keys("C-u");
      await until(screen, (text) => !text.includes(word));
      started = performance.now();
      screen.paste(big);
      rows.big.push(
        (await until(screen, (text) => text.includes("[pasted 2,400 lines]"))) - started,
      );
      screen.keys("C-c");
      await until(screen, (text) => !text.includes("[pasted 2,400 lines]"));
    }
  } finally {
    screen.kill();
  }
  for (let i = 0; i < RUNS; i++) {
    rows.empty.push(await firstFrame(0));
    rows.full.push(await firstFrame(1000));
  }
  const ms = (values: number[]) => `${median(values).toFixed(0)} ms`;
  return [
    `paste until shown (median of ${RUNS}, the same session, tmux's paste-buffer included)`,
    `  2,400 lines (${big.length.toLocaleString("en-US")} bytes) until [pasted 2,400 lines]  ${ms(rows.big)}`,
    `  baseline one word until echoed                              ${ms(rows.small)}`,
    `first frame showing the editor (median of ${RUNS}, alternating, not settled)`,
    `  with 1,000 prompts in history.jsonl ${ms(rows.full)}; with none ${ms(rows.empty)}`,
  ];
}

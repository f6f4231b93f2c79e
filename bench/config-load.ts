// Config loading at size: a 2 MB user `config.toml` of 25,000 `[models."…"]` tables (the shape
// that took 12.5 s / 55 s / over 120 s at 10k / 20k / 40k tables when the merge and the line
// locator were quadratic). In-process `loadConfig` (median of BENCH_CONFIG_RUNS, default 7,
// after a warm-up) beside smol-toml's `parse` of the same text, the floor any loader on it has;
// then the built `codewhale config check` on it beside the same command with no config file,
// each in a fresh process (median of 5). Each load is checked: every table arrives with its
// source. Imported by bench/run.ts.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { parse } from "smol-toml";
import { loadConfig } from "../src/config/index.ts";
import { cliPath } from "../test/support/cli.ts";

const QUICK = process.env.BENCH_QUICK === "1";
const TABLES = QUICK ? 2_500 : 25_000;
const RUNS = Math.max(1, Number(process.env.BENCH_CONFIG_RUNS ?? (QUICK ? 3 : 7)));
const TARGET_MS = 200;

function configText(tables: number): string {
  const lines: string[] = [];
  for (let i = 0; i < tables; i++) {
    lines.push(`[models."anthropic/model-${i}"]`, `context_window = ${100_000 + i}`);
    lines.push("input_price = 3", "output_price = 15", "");
  }
  return lines.join("\n");
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

function timed(run: () => void): number {
  const start = performance.now();
  run();
  return performance.now() - start;
}

function cliMs(home: string): number {
  const start = performance.now();
  const result = spawnSync(process.execPath, [cliPath, "config", "check"], {
    cwd: home,
    env: { PATH: process.env.PATH ?? "", CODEWHALE_HOME: home, HOME: home },
    encoding: "utf8",
  });
  const ms = performance.now() - start;
  if (result.status !== 0) throw new Error(`config check failed: ${result.stderr}`);
  return ms;
}

export async function benchConfigLoad(): Promise<string[]> {
  const root = mkdtempSync(join(tmpdir(), "cw-bench-config-"));
  try {
    const home = join(root, "home");
    const empty = join(root, "empty");
    mkdirSync(home);
    mkdirSync(empty);
    const text = configText(TABLES);
    writeFileSync(join(home, "config.toml"), text);
    const env = { CODEWHALE_HOME: home, HOME: root };
    const load = () => {
      const loaded = loadConfig({ cwd: root, env });
      const last = `models."anthropic/model-${TABLES - 1}".context_window`;
      if (loaded.sources.get(last) !== join(home, "config.toml")) throw new Error(`lost ${last}`);
    };
    load();
    parse(text);
    const loads: number[] = [];
    const parses: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      loads.push(timed(load));
      parses.push(timed(() => parse(text)));
    }
    const cli = Array.from({ length: 5 }, () => cliMs(home));
    const bare = Array.from({ length: 5 }, () => cliMs(empty));
    const mb = (Buffer.byteLength(text) / 1e6).toFixed(1);
    const loadMs = median(loads);
    const parseMs = median(parses);
    return [
      `config load: ${mb} MB, ${TABLES} tables, loadConfig ${loadMs.toFixed(0)} ms (median of ${RUNS}, runs ${Math.min(...loads).toFixed(0)}–${Math.max(...loads).toFixed(0)} ms; target < ${TARGET_MS} ms)`,
      `  baseline smol-toml parse of the same text: ${parseMs.toFixed(0)} ms (load/parse ${(loadMs / parseMs).toFixed(2)}×)`,
      `  codewhale config check on it, fresh process: ${median(cli).toFixed(0)} ms; with no config file ${median(bare).toFixed(0)} ms (median of 5)`,
    ];
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

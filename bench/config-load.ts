// Config loading at size: a 2 MB user `config.toml` of 25,000 `[models."…"]` tables (the shape
// that took 12.5 s / 55 s / over 120 s at 10k / 20k / 40k tables when the merge and the line
// locator were quadratic). In-process `loadConfig` (median of BENCH_CONFIG_RUNS, default 7,
// after a warm-up), cold (the parse cache of $CODEWHALE_HOME/cache/config removed first; the
// entry's write, which the CLI leaves for exit, timed on its own) and warm (right after), beside smol-toml's `parse` of the same text, the floor of a cold load,
// and JSON.parse of the cache entry, the floor of a warm one; then the built `codewhale config
// check` on it, cold and warm, beside the same command with no config file, each in a fresh
// process (median of 5). Each load is checked: every table arrives with its source. Imported by
// bench/run.ts.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { parse } from "smol-toml";
import { loadConfig } from "../src/config/index.ts";
import { writePendingParses } from "../src/config/parse-cache.ts";
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

/** The JSON of a parse cache entry, after its key line. */
function cacheBody(path: string): string {
  const content = readFileSync(path, "utf8");
  return content.slice(content.indexOf("\n") + 1);
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
    const parseCache = join(home, "cache", "config");
    const dropCache = () => rmSync(parseCache, { recursive: true, force: true });
    load();
    writePendingParses();
    parse(text);
    const colds: number[] = [];
    const writes: number[] = [];
    const warms: number[] = [];
    const parses: number[] = [];
    const entries: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      dropCache();
      colds.push(timed(load));
      writes.push(timed(writePendingParses)); // left for exit by the CLI
      warms.push(timed(load));
      parses.push(timed(() => parse(text)));
      const [entry] = readdirSync(parseCache);
      if (!entry) throw new Error("no parse cache entry was written");
      entries.push(timed(() => JSON.parse(cacheBody(join(parseCache, entry)))));
    }
    const cli = (cold: boolean) =>
      Array.from({ length: 5 }, () => {
        if (cold) dropCache();
        return cliMs(home);
      });
    const cliCold = cli(true);
    const cliWarm = cli(false);
    const bare = Array.from({ length: 5 }, () => cliMs(empty));
    const mb = (Buffer.byteLength(text) / 1e6).toFixed(1);
    const range = (runs: number[]) =>
      `runs ${Math.min(...runs).toFixed(0)}–${Math.max(...runs).toFixed(0)} ms`;
    const ms = (runs: number[]) => `${median(runs).toFixed(0)} ms`;
    return [
      `config load: ${mb} MB, ${TABLES} tables, loadConfig cold ${ms(colds)} (${range(colds)}), warm ${ms(warms)} (${range(warms)}); median of ${RUNS}, target < ${TARGET_MS} ms`,
      `  baseline smol-toml parse of the same text: ${ms(parses)} (cold load/parse ${(median(colds) / median(parses)).toFixed(2)}×); JSON.parse of the cache entry ${ms(entries)}; the entry's write (at exit) ${ms(writes)}`,
      `  codewhale config check on it, fresh process: cold ${ms(cliCold)}, warm ${ms(cliWarm)}; with no config file ${ms(bare)} (median of 5)`,
    ];
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

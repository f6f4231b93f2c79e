// Benchmarks of the bash parser behind bash rules (src/permissions/bash-split.ts): its cold
// start in a fresh process (median of BENCH_RUNS, default 5), parse time per command beside
// the hand-written splitter it replaced (bench/baseline/), the files it adds to dist/, and the
// full differential fuzz against real bash (22,000 lines; BENCH_QUICK=1 runs 2,000).
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: bash `${…}` expansions are the data
import { spawnSync } from "node:child_process";
import { statSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { loadBashParser, splitCommand } from "../src/permissions/bash-split.ts";
import { generateCommands } from "../test/support/bash-fuzz/generate.ts";
import { differentialFuzz } from "../test/support/bash-fuzz/run.ts";
import { splitCommand as baselineSplit } from "./baseline/bash-split.ts";

const QUICK = process.env.BENCH_QUICK === "1";
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 5));
const FUZZ_LINES = QUICK ? 2_000 : 22_000;
const repoRoot = fileURLToPath(new URL("..", import.meta.url));

/** Commands as agents write them. */
const REALISTIC = [
  "git status --short && npm test 2>&1 | tee log",
  "ls -la | grep foo",
  'git commit -m "fix: $(date)"',
  "find . -name '*.ts' | xargs grep -n fixme",
  "cd src && npm run build -- --watch=false",
  'echo "${HOME:-/tmp}" > out.txt',
  'for f in *.md; do wc -l "$f"; done',
  'docker run --rm -v "$PWD":/w -w /w node:20 npm ci',
];

export async function benchBashParse(): Promise<string[]> {
  const lines: string[] = [];
  const cold = Array.from({ length: RUNS }, coldStart);
  const load = median(cold.map((run) => run.load));
  const first = median(cold.map((run) => run.first));
  lines.push(`bash parser cold start: load ${ms(load)} ms, first parse ${ms(first)} ms`);
  lines.push(`  median of ${RUNS} fresh processes; paid once, only when a bash rule applies`);
  await loadBashParser();
  const fuzzLines = generateCommands(11, 3_000);
  for (const [name, corpus] of [
    ["realistic commands", REALISTIC],
    ["fuzz lines", fuzzLines],
  ] as const) {
    const parser = perCommand(corpus, splitCommand);
    const baseline = perCommand(corpus, baselineSplit);
    lines.push(
      `parse per command, ${name}: tree-sitter-bash ${us(parser)} µs; baseline (hand-written splitter) ${us(baseline)} µs`,
    );
  }
  lines.push(bundleSizes());
  const fuzz = await differentialFuzz(generateCommands(1, FUZZ_LINES));
  lines.push(
    `differential fuzz: ${fuzz.lines} lines, ${fuzz.executions} programs run by bash, ` +
      `${fuzz.uncertain} lines uncertain (never allowed by a rule), ${fuzz.failures.length} failures`,
  );
  lines.push(
    `  bash ${(fuzz.bashMs / 1000).toFixed(1)} s (2 processes), parser ${(fuzz.parseMs / 1000).toFixed(1)} s`,
  );
  for (const failure of fuzz.failures.slice(0, 5)) {
    lines.push(`  FAIL ${JSON.stringify(failure.line)} ran ${JSON.stringify(failure.ran)}`);
  }
  return lines;
}

function coldStart(): { load: number; first: number } {
  const child = spawnSync(process.execPath, ["--import", "tsx", "bench/bash-parse-child.ts"], {
    cwd: repoRoot,
    encoding: "utf8",
  });
  if (child.status !== 0) throw new Error(`bash-parse-child failed: ${child.stderr}`);
  return JSON.parse(child.stdout) as { load: number; first: number };
}

/** Mean µs per command over enough rounds to take about half a second. */
function perCommand(corpus: readonly string[], split: (command: string) => unknown): number {
  for (const command of corpus.slice(0, 200)) split(command);
  let calls = 0;
  const started = performance.now();
  while (performance.now() - started < 500) {
    for (const command of corpus) split(command);
    calls += corpus.length;
  }
  return ((performance.now() - started) * 1000) / calls;
}

function bundleSizes(): string {
  const size = (file: string) => statSync(new URL(`../dist/${file}`, import.meta.url)).size;
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KiB`;
  const wasm = size("tree-sitter.wasm") + size("tree-sitter-bash.wasm");
  return `dist/: cli.cjs ${kb(size("cli.cjs"))}; parser WebAssembly ${kb(wasm)} (tree-sitter.wasm + tree-sitter-bash.wasm, read from disk on first use)`;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

const ms = (value: number) => value.toFixed(1);
const us = (value: number) => value.toFixed(1);

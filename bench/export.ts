// Benchmark of `codewhale export` (issue 14, item 7): a 1,000,000-event session exported to md
// and html, time and peak RSS of each beside reading and JSON.parse-ing the same log in the same
// run (bench/replay-child.ts's `parse`). Targets: ≤ 3× the read-and-parse time, ≤ 300 MB.
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildSync } from "esbuild";
import { fmtS, type Measured, medianRun, runChild, writeReplayLog } from "./session-log.ts";

const RUNS = 3;

/** The repo's gitignored .bench/: a bundle there finds node_modules (markdown-it) as dist/ does. */
const BUNDLES = new URL("../.bench/", import.meta.url).pathname;

function bundle(name: string, dir: string, format: "esm" | "cjs"): string {
  const script = join(dir, `${name}.${format === "esm" ? "mjs" : "cjs"}`);
  const entry = new URL(`./${name}.ts`, import.meta.url).pathname;
  buildSync({
    entryPoints: [entry],
    outfile: script,
    bundle: true,
    platform: "node",
    format,
    // The CommonJS bundle requires lazy modules (markdown-it); import.meta is for source runs.
    logOverride: { "empty-import-meta": "silent" },
    logLevel: "warning",
  });
  return script;
}

export async function benchExport(): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), "cw-bench-export-"));
  try {
    const { path } = writeReplayLog(dir);
    const parseScript = bundle("replay-child", dir, "esm");
    const exportScript = bundle("export-child", BUNDLES, "cjs");
    const lastSeq = String(
      Number(runChild(parseScript, "parse", path, dir).detail.split(" ")[0]) - 1,
    );
    const runs: Record<string, Measured[]> = { parse: [], md: [], html: [] };
    for (let i = 0; i < RUNS; i++) {
      runs.parse!.push(runChild(parseScript, "parse", path, dir));
      for (const format of ["md", "html"]) {
        runs[format]!.push(
          runChild(exportScript, format, path, join(dir, `out.${format}`), lastSeq),
        );
      }
    }
    const parse = medianRun(runs.parse!);
    const lines = [
      `baseline read + JSON.parse of every line of ${(Number(lastSeq) + 1).toLocaleString("en-US")} events (${(statSync(path).size / 1e6).toFixed(1)} MB): ${fmtS(parse.ms)} s, peak RSS ${parse.rssMb} MB (median of ${RUNS})`,
    ];
    for (const format of ["md", "html"]) {
      const run = medianRun(runs[format]!);
      lines.push(
        `export --format ${format} (canonical view, redacted): ${fmtS(run.ms)} s, peak RSS ${run.rssMb} MB, ${(run.ms / parse.ms).toFixed(2)}× the baseline (${run.detail}; median of ${RUNS}; target ≤ 3×, ≤ 300 MB)`,
      );
    }
    return lines;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

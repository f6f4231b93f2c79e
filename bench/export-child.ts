// Child process of the export benchmark (bundled by bench/export.ts): exports a log as the CLI
// does (`codewhale export <id> --format md|html -o FILE`: read and verify the log, fold the
// view, render, redact, hash and write through a temporary file) and prints { ms, rssMb, detail }.
import { statSync } from "node:fs";
import { ExportFile, HashingSink } from "../src/cli/export-output.ts";
import { writeExportBody } from "../src/cli/export-source.ts";
import type { ExportFormat } from "../src/present/export-render-types.ts";

const [format, path, out, lastSeq] = process.argv.slice(2) as [
  ExportFormat,
  string,
  string,
  string,
];

// Bundled as CommonJS like the CLI, so markdown-it is required as the CLI requires it.
async function main(): Promise<void> {
  const began = performance.now();
  const file = new ExportFile(out);
  const sink = new HashingSink(file.write);
  const selector = { view: "canonical" as const, format, until: null, redacted: true };
  const info = await writeExportBody(path, selector, Number(lastSeq), sink);
  const digest = sink.digest();
  file.commit();
  const ms = performance.now() - began;
  const rssMb = Math.round(process.resourceUsage().maxRSS / 1024);
  const detail = `${info.lastSeq + 1} events to ${(statSync(out).size / 1e6).toFixed(1)} MB of ${format} (sha256 ${digest.slice(0, 12)}…)`;
  process.stdout.write(JSON.stringify({ ms, rssMb, detail }));
}

void main();

// Benchmarks of the emulator path of control-sequence hygiene: 50 MB of a redraw-heavy stream
// (bench/terminal-child.ts) through the control stripper, which renders it in @xterm/headless
// sized 80×24 (a pty) and with no wrap (a pipe), beside the same stream written straight into
// xterm (the library's own speed, the baseline), each in a process of its own for its peak
// RSS; and the fast path on the mixed build/log text of bench/runner.ts for comparison.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { ControlStripper } from "../src/runner/control-stripper.ts";
import { logBlock } from "./runner.ts";

const MiB = 1024 * 1024;
const SCALE = process.env.BENCH_QUICK === "1" ? 16 : 1;
const repoRoot = fileURLToPath(new URL("..", import.meta.url));

interface ChildRun {
  seconds: number;
  baseRssMb: number;
  peakRssMb: number;
  outputMb: number;
}

function child(mode: string, mib: number): ChildRun {
  const run = spawnSync(
    process.execPath,
    ["--import", "tsx", "bench/terminal-child.ts", mode, String(mib)],
    { cwd: repoRoot, encoding: "utf8", maxBuffer: 16 * MiB },
  );
  if (run.status !== 0) throw new Error(`terminal-child ${mode}: ${run.stderr}`);
  return JSON.parse(run.stdout) as ChildRun;
}

function fastPath(mib: number): number {
  const blocks = [1, 2, 3, 4].map((seed) => Buffer.from(logBlock(seed)));
  const stripper = new ControlStripper();
  const start = performance.now();
  for (let done = 0, i = 0; done < mib * MiB; i++) {
    const block = blocks[i % blocks.length]!;
    for (let at = 0; at < block.length; at += 64 * 1024)
      stripper.push(block.subarray(at, at + 64 * 1024));
    done += block.length;
  }
  stripper.end();
  return mib / ((performance.now() - start) / 1000);
}

export async function benchTerminal(): Promise<string[]> {
  const mib = 50 / SCALE;
  const line = (label: string, run: ChildRun) =>
    `  ${label.padEnd(34)} ${(mib / run.seconds).toFixed(1).padStart(6)} MB/s  extra RSS ${(run.peakRssMb - run.baseRssMb).toFixed(0)} MB (peak ${run.peakRssMb.toFixed(0)} MB)`;
  const pty = child("pty", mib);
  const pipe = child("pipe", mib);
  const xterm = child("xterm", mib);
  return [
    `terminal: ${mib.toFixed(0)} MB of a redraw-heavy stream (live summary: cursor up, erase), 64 KiB reads`,
    line("emulator path, 80×24 (a pty)", pty),
    line("emulator path, no wrap (a pipe)", pipe),
    line("xterm alone, 80×24 (baseline)", xterm),
    `  fast path on ${mib.toFixed(0)} MB of mixed build/log text  ${fastPath(mib).toFixed(0)} MB/s (same run)`,
  ];
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  for (const text of await benchTerminal()) console.log(text);
}

// The differential fuzz: what the parser says each command line runs, against what real bash
// runs. bash executes the lines in a temp dir whose PATH is only bin/, a tracing stub per
// program (generate.ts names no other), many lines per bash process, each in a subshell; the
// stubs log their argv. A line bash ran a program for that no certain parse reports is a failure.
import { spawn } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SimpleCommand, SplitCommand } from "../../../src/permissions/bash-split.ts";
import { splitCommand } from "../../../src/permissions/bash-split.ts";
import { STUBS } from "./generate.ts";

const UNIT = "\x1f";
const RECORD = "\x1e";
const MARK = "\x1d";

/** Each subshell runs one line, waits for its jobs (and process substitutions), then the next. */
const DRIVER = `
__fz_i=0
while IFS= read -r -d '' __fz_line; do
  ( export FUZZ_LINE=$__fz_i; eval "$__fz_line"; wait ) </dev/null >/dev/null 2>&1
  __fz_i=$((__fz_i + 1))
done
`;

/**
 * A stub records the line it runs for (FUZZ_LINE, inherited even by a job that outlives its
 * line), its name and argv as one write, then does nothing.
 */
const STUB = `#!/bin/sh
r="$FUZZ_LINE${MARK}\${0##*/}"
for a in "$@"; do r="$r${UNIT}$a"; done
printf '%s${RECORD}' "$r" >> "$FUZZ_TRACE"
`;

export interface FuzzFailure {
  line: string;
  ran: string[];
  reported: SimpleCommand[];
}

export interface FuzzReport {
  lines: number;
  /** Lines the parser flagged as uncertain: no allow rule matches them, deny rules ask. */
  uncertain: number;
  /** Programs bash ran, over all lines. */
  executions: number;
  failures: FuzzFailure[];
  bashMs: number;
  parseMs: number;
}

export interface FuzzOptions {
  /** bash processes run at once. */
  shards?: number;
  /** The parser under test; the real one by default. */
  split?: (line: string) => SplitCommand;
}

/** Runs the lines through bash in `shards` processes at once, and through the parser. */
export async function differentialFuzz(
  lines: string[],
  { shards = 2, split: parse = splitCommand }: FuzzOptions = {},
): Promise<FuzzReport> {
  const started = Date.now();
  const size = Math.ceil(lines.length / shards);
  const chunks = Array.from({ length: shards }, (_, i) => lines.slice(i * size, (i + 1) * size));
  const traces = (await Promise.all(chunks.map(traceInBash))).flat();
  const bashMs = Date.now() - started;
  const parseStarted = Date.now();
  const report: FuzzReport = {
    lines: lines.length,
    uncertain: 0,
    executions: 0,
    failures: [],
    bashMs,
    parseMs: 0,
  };
  lines.forEach((line, index) => {
    const ran = traces[index] ?? [];
    report.executions += ran.length;
    const split = parse(line);
    if (split.uncertain) {
      report.uncertain++;
      return;
    }
    const missed = ran.filter((argv) => !split.commands.some((part) => covers(part, argv)));
    if (missed.length > 0) {
      const shown = missed.map((argv) => argv.join(" "));
      report.failures.push({ line, ran: shown, reported: split.commands });
    }
  });
  report.parseMs = Date.now() - parseStarted;
  return report;
}

/**
 * True when the part accounts for the run: its name is computed at run time (so deny rules ask
 * and allow rules refuse), or its argv matches, each computed word standing for any words.
 */
function covers(part: SimpleCommand, ran: string[]): boolean {
  const [name, ...args] = part.argv;
  if (part.argv.length === 0) return false;
  if (name === undefined) return true;
  if (name.slice(name.lastIndexOf("/") + 1) !== ran[0]) return false;
  return matches(args, ran.slice(1));
}

function matches(pattern: Array<string | undefined>, words: string[]): boolean {
  if (pattern.length === 0) return words.length === 0;
  const [head, ...rest] = pattern;
  if (head !== undefined) return words[0] === head && matches(rest, words.slice(1));
  for (let take = 0; take <= words.length; take++) {
    if (matches(rest, words.slice(take))) return true;
  }
  return false;
}

/** The argv of every program bash ran, per line, in one bash process. */
async function traceInBash(lines: string[]): Promise<string[][][]> {
  const work = mkdtempSync(join(tmpdir(), "codewhale-fuzz-"));
  try {
    const bin = join(work, "bin");
    mkdirSync(bin);
    for (const stub of STUBS) {
      writeFileSync(join(bin, stub), STUB);
      chmodSync(join(bin, stub), 0o755);
    }
    for (const file of ["a.txt", "b.txt"]) writeFileSync(join(work, file), "");
    const trace = join(work, "trace");
    writeFileSync(trace, "");
    if (!(await runDriver(lines, work, trace))) throw new Error("bash did not finish the lines");
    // Jobs a line left behind (`a & exec b`) may still be writing.
    await new Promise((resolve) => setTimeout(resolve, 200));
    return parseTrace(readFileSync(trace, "utf8"), lines.length);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** Runs the driver over the lines; false when bash did not get through them in time. */
function runDriver(lines: string[], work: string, trace: string): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const env = { PATH: join(work, "bin"), HOME: work, FUZZ_TRACE: trace, LC_ALL: "C" };
    const child = spawn("/bin/bash", ["--norc", "--noprofile", "-c", DRIVER], {
      cwd: work,
      env,
      stdio: ["pipe", "ignore", "ignore"],
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), 60_000 + lines.length * 100);
    child.on("error", reject);
    child.on("close", (status) => {
      clearTimeout(timer);
      resolve(status === 0);
    });
    // bash stops reading if it is killed; the close handler reports that.
    child.stdin.on("error", () => undefined);
    child.stdin.end(lines.map((line) => `${line}\0`).join(""));
  });
}

function parseTrace(text: string, count: number): string[][][] {
  const out: string[][][] = Array.from({ length: count }, () => []);
  for (const record of text.split(RECORD)) {
    const mark = record.indexOf(MARK);
    if (mark === -1) continue;
    out[Number(record.slice(0, mark))]?.push(record.slice(mark + 1).split(UNIT));
  }
  return out;
}

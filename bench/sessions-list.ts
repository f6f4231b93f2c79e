// Benchmark of `codewhale sessions list` over 500 sessions (issue 14): the built CLI listing
// them all (head, tail and the byte scan of each log for turns and cost), beside, in the same
// run, the CLI doing nothing (`--version`, its start-up) and a full replay of every log
// (read, verify, fold), which is what a listing must not cost.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { EventInput } from "../src/session/events.ts";
import { foldFigures } from "../src/session/figures.ts";
import { listSessionFiles } from "../src/session/paths.ts";
import { readSession } from "../src/session/reader.ts";
import { cliPath } from "../test/support/cli.ts";
import { turnEvents, writeGeneratedSession } from "../test/support/generated-sessions.ts";

const quick = process.env.BENCH_QUICK === "1";
const SESSIONS = quick ? 100 : 500;
const TURNS = 3;
const CHUNKS = 60;
const RUNS = 5;

/** One turn: a prompt, 60 streamed chunks, a tool call with a 2 KB result, a usage record. */
function turn(n: number): EventInput[] {
  return turnEvents(n, {
    prompt: `task ${n}: tidy the notes and run the tests`,
    chunks: Array.from({ length: CHUNKS }, () => "the quick brown fox jumps over the dog. "),
    tool: { name: "bash", input: { command: "npm test" } },
    result: "ok 1 - passes\n".repeat(150),
  });
}

function median(values: number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
}

function timedCli(args: string[], env: NodeJS.ProcessEnv): number {
  const began = performance.now();
  const run = spawnSync(process.execPath, [cliPath, ...args], {
    env,
    encoding: "utf8",
    maxBuffer: 64 << 20,
  });
  if (run.status !== 0) throw new Error(`codewhale ${args.join(" ")} failed: ${run.stderr}`);
  return performance.now() - began;
}

export async function benchSessionsList(): Promise<string[]> {
  const home = mkdtempSync(join(tmpdir(), "cw-bench-list-"));
  try {
    const dir = join(home, "sessions");
    const events = Array.from({ length: TURNS }, (_, n) => turn(n)).flat();
    for (let i = 0; i < SESSIONS; i++) writeGeneratedSession(dir, "/bench/project", [events]);
    const env = { PATH: process.env.PATH ?? "", CODEWHALE_HOME: home, TZ: "UTC" };
    const list: number[] = [];
    const json: number[] = [];
    const version: number[] = [];
    const replay: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      version.push(timedCli(["--version"], env));
      list.push(timedCli(["sessions", "list", "--all"], env));
      json.push(timedCli(["sessions", "list", "--all", "--json"], env));
      const began = performance.now();
      for (const path of listSessionFiles(dir)) foldFigures(readSession(path).events);
      replay.push(performance.now() - began);
    }
    const perEvent = events.length + 1;
    const ms = (values: number[]) => `${median(values).toFixed(0)} ms`.padStart(8);
    return [
      `sessions list: ${SESSIONS} sessions of ${perEvent} events (${TURNS} turns), median of ${RUNS}`,
      `  sessions list --all         ${ms(list)}  (start-up included)`,
      `  sessions list --all --json  ${ms(json)}`,
      `  baseline: codewhale --version ${ms(version)}  (start-up alone)`,
      `  baseline: full replay of every log in process (read, verify, fold) ${ms(replay)}`,
    ];
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

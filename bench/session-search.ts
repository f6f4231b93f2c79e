// Benchmark of the session search index (issue 35, docs/search.md): generated sessions (the
// shared generator of test/support/generated-sessions.ts; 2,000 of 60 turns is about 1 GB)
// indexed by the SQLite FTS5 index codewhale ships: the first full index, the update after one
// more turn, a query's median, the index's size against the logs', beside `rg` over the same
// logs in the same run. `BENCH_SEARCH_SESSIONS` sets how many (40 with BENCH_QUICK=1, else
// 2,000). The logs are written in a tmpfs staging dir (the writer syncs, which on a disk takes
// minutes) and then copied into a temp dir on disk, removed afterwards.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openSearchIndex } from "../src/search/index.ts";
import { indexBytes } from "../src/search/index-db.ts";
import { listSessionFiles } from "../src/session/paths.ts";
import { SessionWriter } from "../src/session/writer.ts";
import {
  TextGenerator,
  TOPIC_WORDS,
  turnEvents,
  writeGeneratedSession,
} from "../test/support/generated-sessions.ts";

const quick = process.env.BENCH_QUICK === "1";
const SESSIONS = Number(process.env.BENCH_SEARCH_SESSIONS ?? (quick ? 40 : 2000));
const TURNS = 60;
const RUNS = 21;
const QUERIES = [
  "retry jitter",
  '"socket timeout"',
  "canary rollback",
  "mutex",
  "glyph width",
  "kernel",
  '"cache eviction" planner',
];

const text = new TextGenerator();
const TOOLS = ["read", "bash", "grep", "edit"];

/** One generated turn: 20-word prompt, 60 words of thinking, 120 streamed, a 600-word result. */
function turn(n: number) {
  const answer = text.words(120);
  const tool = TOOLS[n % TOOLS.length]!;
  const path = `src/${TOPIC_WORDS[n % TOPIC_WORDS.length]}/${text.words(1)}.ts`;
  const input: { [key: string]: string } =
    tool === "bash" ? { command: `npm test -- ${path}` } : { path };
  return turnEvents(n, {
    prompt: `task ${n}: ${text.words(20)}`,
    thinking: text.words(60),
    answer,
    chunks: answer.match(/.{1,80}/gs) ?? [],
    tool: { name: tool, input },
    result: text.words(600),
  });
}

function median(values: number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
}
function timed(fn: () => void): number {
  const began = performance.now();
  fn();
  return performance.now() - began;
}
const ms = (value: number) => `${value.toFixed(value < 10 ? 2 : 0)} ms`;
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

/** Writes the sessions in a tmpfs staging dir when there is one, then copies them to `dir`. */
function generate(dir: string): number {
  const began = performance.now();
  const staging = existsSync("/dev/shm") ? mkdtempSync("/dev/shm/cw-bench-search-") : null;
  const target = staging ?? dir;
  try {
    for (let i = 0; i < SESSIONS; i++) {
      const turns = Array.from({ length: TURNS }, (_, n) => turn(n));
      writeGeneratedSession(join(target, "sessions"), `/bench/project-${i % 20}`, turns);
    }
    if (staging) cpSync(join(staging, "sessions"), join(dir, "sessions"), { recursive: true });
  } finally {
    if (staging) rmSync(staging, { recursive: true, force: true });
  }
  return performance.now() - began;
}

export async function benchSessionSearch(): Promise<string[]> {
  const home = mkdtempSync(join(tmpdir(), "cw-bench-search-"));
  try {
    const generation = generate(home);
    const dir = join(home, "sessions");
    const files = listSessionFiles(dir);
    const logBytes = files.reduce((sum, file) => sum + statSync(file).size, 0);
    const lines = [
      `${SESSIONS} sessions of ${TURNS} turns, ${mb(logBytes)} of logs (written in ${(generation / 1000).toFixed(0)} s); medians of ${RUNS} queries`,
    ];
    lines.push(...(await benchSqlite(home, dir, files.at(-1)!, logBytes)));
    lines.push(...benchRg(dir));
    return lines;
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

/** Wall time and this process's CPU time of `fn`, in ms (the machine may be shared). */
function measured(fn: () => void): { wall: number; cpu: number } {
  const cpu = process.cpuUsage();
  const wall = timed(fn);
  const used = process.cpuUsage(cpu);
  return { wall, cpu: (used.user + used.system) / 1000 };
}
const both = ({ wall, cpu }: { wall: number; cpu: number }) => `${ms(wall)} (${ms(cpu)} of CPU)`;

async function benchSqlite(
  home: string,
  dir: string,
  lastLog: string,
  logBytes: number,
): Promise<string[]> {
  const index = await openSearchIndex({ home, sessionsDir: dir });
  const none = { wall: 0, cpu: 0 };
  let full = none;
  let afterTurn = none;
  let walk = none;
  const queries: { wall: number; cpu: number }[] = [];
  let hits = 0;
  try {
    full = measured(() => index.sync());
    const writer = SessionWriter.resume(lastLog).writer;
    for (const event of turn(TURNS)) writer.append(event);
    writer.close();
    afterTurn = measured(() => index.sync([lastLog]));
    walk = measured(() => index.sync());
    for (const query of QUERIES) {
      for (let run = 0; run < 3; run++) {
        queries.push(measured(() => (hits += index.search(query).length)));
      }
    }
  } finally {
    index.close();
  }
  const began = performance.now();
  const opened = await openSearchIndex({ home, sessionsDir: dir });
  opened.search(QUERIES[0]!);
  opened.close();
  const fresh = performance.now() - began;
  const size = indexBytes(home);
  const middle = {
    wall: median(queries.map((q) => q.wall)),
    cpu: median(queries.map((q) => q.cpu)),
  };
  return [
    "  sqlite fts5 (better-sqlite3), contentless, detail=column, snippets read from the logs:",
    `    first full index ${(full.wall / 1000).toFixed(1)} s (${(full.cpu / 1000).toFixed(1)} s of CPU)`,
    `    update after one more turn ${both(afterTurn)}; the walk over every log's size with nothing new ${both(walk)}`,
    `    query median ${both(middle)} (${QUERIES.length} queries × 3, ${hits} hits); open, query and close as a new process does ${ms(fresh)}`,
    `    index ${mb(size)} = ${((100 * size) / logBytes).toFixed(1)} % of the logs`,
  ];
}

function benchRg(dir: string): string[] {
  const runs: number[] = [];
  for (let run = 0; run < 5; run++) {
    const word = QUERIES[run % QUERIES.length]!.replace(/"/g, "");
    runs.push(
      timed(() =>
        spawnSync("rg", ["-l", "-F", word, dir], { encoding: "utf8", maxBuffer: 64 << 20 }),
      ),
    );
  }
  return [`  baseline: rg -l -F over the same logs, median of 5 ${ms(median(runs))}`];
}

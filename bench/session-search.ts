// Benchmark of the session search index (issue 35, docs/search.md): generated sessions indexed
// by the SQLite FTS5 index codewhale ships (first full index, the update after one more turn, a
// query's median, its size against the logs'), beside, in the same run, a pure-JS index
// (MiniSearch, when CODEWHALE_BENCH_MINISEARCH names its installed package directory: it is not
// a dependency) over the same documents, and `rg` over the same logs.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { documentOf, type SearchDocument } from "../src/search/documents.ts";
import { openSearchIndex } from "../src/search/index.ts";
import { indexBytes } from "../src/search/index-db.ts";
import type { EventInput } from "../src/session/events.ts";
import { listSessionFiles } from "../src/session/paths.ts";
import { SessionReader } from "../src/session/reader.ts";
import { SessionWriter } from "../src/session/writer.ts";

const quick = process.env.BENCH_QUICK === "1";
const SESSIONS = Number(process.env.BENCH_SEARCH_SESSIONS ?? (quick ? 40 : 400));
const TURNS = 20;
const RUNS = 21;

const WORDS = `retry policy backoff jitter deadline socket timeout parser lexer token buffer stream
chunk cache eviction index migration schema column table query planner cursor commit rollback
branch merge rebase review deploy rollout canary metric alert dashboard latency throughput queue
worker thread mutex channel promise future async await module bundle import export config flag
option default session log event hash chain receipt verify signature key secret redact policy
sandbox network proxy mount overlay kernel process signal terminal render frame glyph width`
  .split(/\s+/)
  .filter(Boolean);

let seed = 42;
function random(): number {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff;
  return seed / 0x7fffffff;
}
function words(n: number): string {
  return Array.from({ length: n }, () => WORDS[Math.floor(random() * WORDS.length)]).join(" ");
}

function turn(n: number): EventInput[] {
  const path = `src/${WORDS[n % WORDS.length]}/${WORDS[(n * 7) % WORDS.length]}.ts`;
  const answer = words(120);
  return [
    { type: "user/message", text: `task ${n}: ${words(20)}` },
    { type: "turn/start", turn: n },
    { type: "step/start", turn: n, step: 0, provider: "anthropic", model: "claude-sonnet-4-5" },
    ...Array.from({ length: 12 }, () => ({
      type: "assistant/chunk" as const,
      turn: n,
      step: 0,
      block: 0,
      kind: "text" as const,
      delta: `${answer.slice(0, 60)} `,
    })),
    {
      type: "assistant/message",
      turn: n,
      step: 0,
      provider: "anthropic",
      model: "claude-sonnet-4-5",
      api: "anthropic",
      request_id: `req_${n}`,
      stop_reason: "tool_use",
      content: [
        { type: "text", text: answer },
        { type: "tool_use", id: `toolu_${n}`, name: "read", input: { path } },
      ],
    },
    {
      type: "step/end",
      turn: n,
      step: 0,
      usage: { input: 1200, output: 300, cache_read: 4000, cache_write: 0, reasoning: 0 },
      cost: 0.0123,
    },
    {
      type: "tool/call",
      turn: n,
      step: 0,
      call_id: `toolu_${n}`,
      name: "read",
      arguments: { path },
      decision: { outcome: "allow", by: "mode" },
    },
    {
      type: "tool/result",
      call_id: `toolu_${n}`,
      content: words(600),
      is_error: false,
      original_bytes: 4000,
      delivered_bytes: 4000,
      truncated: false,
      spill_path: null,
      policy_errors: [],
    },
    { type: "turn/end", turn: n, reason: "completed" },
  ];
}

const start = {
  cwd: "/bench/project",
  version: "bench",
  provider: "anthropic",
  model: "claude-sonnet-4-5",
  config_fingerprint: "0".repeat(64),
};

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
const QUERIES = ["retry jitter", '"socket timeout"', "canary rollback", "mutex", "glyph width"];

export async function benchSessionSearch(): Promise<string[]> {
  const home = mkdtempSync(join(tmpdir(), "cw-bench-search-"));
  try {
    const dir = join(home, "sessions");
    let last: SessionWriter | null = null;
    for (let i = 0; i < SESSIONS; i++) {
      const writer = SessionWriter.create(dir, start);
      for (let n = 0; n < TURNS; n++) for (const event of turn(n)) writer.append(event);
      if (i < SESSIONS - 1) writer.close();
      else last = writer;
    }
    last!.sync();
    const files = listSessionFiles(dir);
    const logBytes = files.reduce((sum, file) => sum + statSync(file).size, 0);
    const lines = [
      `${SESSIONS} sessions of ${TURNS} turns, ${mb(logBytes)} of logs; medians of ${RUNS} queries`,
    ];
    lines.push(...(await benchSqlite(home, dir, last!, logBytes)));
    lines.push(...benchMiniSearch(home, files, logBytes));
    lines.push(...benchRg(dir));
    last!.close();
    return lines;
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

async function benchSqlite(
  home: string,
  dir: string,
  writer: SessionWriter,
  logBytes: number,
): Promise<string[]> {
  const index = await openSearchIndex({ home, sessionsDir: dir });
  const full = timed(() => index.sync());
  for (const event of turn(TURNS)) writer.append(event);
  writer.sync();
  const incremental = timed(() => index.sync());
  const queries: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const query = QUERIES[run % QUERIES.length]!;
    queries.push(timed(() => index.search(query, { limit: 20 })));
  }
  const noChange = timed(() => index.sync());
  index.close();
  const size = indexBytes(home);
  return [
    "  sqlite fts5 (better-sqlite3):",
    `    first full index ${ms(full)}; after one more turn ${ms(incremental)} (the update walks every log's size: ${ms(noChange)} with nothing new)`,
    `    query median ${ms(median(queries))}; index ${mb(size)} = ${((100 * size) / logBytes).toFixed(1)} % of the logs`,
  ];
}

interface MiniSearchLike {
  addAll(docs: object[]): void;
  search(query: string, options?: object): unknown[];
  toJSON(): unknown;
}
interface MiniSearchClass {
  new (options: object): MiniSearchLike;
  loadJSON(json: string, options: object): MiniSearchLike;
}

function benchMiniSearch(home: string, files: string[], logBytes: number): string[] {
  const dir = process.env.CODEWHALE_BENCH_MINISEARCH;
  if (!dir)
    return ["  minisearch: not measured (set CODEWHALE_BENCH_MINISEARCH to its package dir)"];
  const MiniSearch = createRequire(join(dir, "x.js"))("minisearch") as MiniSearchClass;
  const options = { fields: ["text"], storeFields: ["session", "seq"] };
  const file = join(home, "minisearch.json");
  let id = 0;
  const docsOf = (path: string) => {
    const out: object[] = [];
    for (const event of new SessionReader(path).events()) {
      const doc: SearchDocument | null = documentOf(event, () => "");
      if (doc) out.push({ id: id++, text: doc.text, session: path, seq: doc.seq });
    }
    return out;
  };
  let index = new MiniSearch(options);
  const full = timed(() => {
    for (const path of files) index.addAll(docsOf(path));
    writeFileSync(file, JSON.stringify(index));
  });
  const extra = docsOf(files[0]!).slice(0, 5);
  const incremental = timed(() => {
    index = MiniSearch.loadJSON(readFileSync(file, "utf8"), options);
    index.addAll(extra);
    writeFileSync(file, JSON.stringify(index));
  });
  const queries: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const query = QUERIES[run % QUERIES.length]!.replace(/"/g, "");
    queries.push(timed(() => index.search(query, { combineWith: "AND" })));
  }
  const size = statSync(file).size;
  return [
    "  minisearch 7 (pure JS, persisted as JSON):",
    `    first full index ${ms(full)}; after one more turn (load, add, save) ${ms(incremental)}`,
    `    query median ${ms(median(queries))} in memory (each process first loads the JSON); index ${mb(size)} = ${((100 * size) / logBytes).toFixed(1)} % of the logs`,
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
  return [`  baseline: rg -l over the logs, median of 5 ${ms(median(runs))}`];
}

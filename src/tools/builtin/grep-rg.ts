// The grep backend used when `rg` is on the PATH: spawns ripgrep (own process group, killed on
// abort or shutdown, and by its lifeline if codewhale dies) and reads its plain `path\0line:text` output as it streams. rg bounds its own
// output (long lines come as a preview, at most cap+1 matches per file) and is killed once the
// cap is passed, so neither time nor memory grows with the file. Flags make rg follow the JS
// walk's rules (.gitignore without a git repo, hidden files, `.git` skipped, walk order); the
// glob filter is applied to rg's hits here, since rg's --glob would override .gitignore. With a
// read gate, `rg --files` (same rules) lists what the search will reach first, so each covered
// file is counted once whatever it holds, and its hits are dropped before anyone sees them. rg
// never follows symlinks in its walk (no --follow), and every hit is checked after it against
// the file opened without following links (grep-verify.ts), for a folder swapped mid-search.
import type { ChildProcess } from "node:child_process";
import { resolve } from "node:path";
import { guardProcessTree, spawnTethered } from "../../runner/index.ts";
import { findExecutable } from "../which.ts";
import type { GrepHits, GrepOutcome, GrepQuery } from "./grep-search.ts";
import {
  addHit,
  bareLine,
  cutGrepLine,
  emptyHits,
  GREP_CANCELLED,
  GREP_MAX_LINE_CHARS,
  GREP_MAX_RESULTS,
  globFilter,
} from "./grep-search.ts";
import { verifiedHits } from "./grep-verify.ts";

/** Lines longer than this many bytes come back as a preview: still more than 500 chars. */
const RG_MAX_COLUMNS = 4 * GREP_MAX_LINE_CHARS;
const MAX_STDERR_CHARS = 16_000;
/** rg's notes (on stdout) about a binary file whose matches it printed before the NUL byte. */
const BINARY_NOTE = /^(.*): (?:WARNING: stopped searching binary file|binary file matches)/;

/** The flags that make rg walk as walk.ts does (shared by the search and the file listing). */
const WALK_FLAGS = [
  "--hidden",
  "--no-require-git",
  "--no-ignore-dot",
  "--no-ignore-global",
  "--no-ignore-exclude",
  "--glob=!.git",
];

/** `rg --files`: the files the search of `query` reaches, NUL-separated, in walk order. */
export function ripgrepFilesArgv(query: GrepQuery): string[] {
  return [
    "rg",
    "--no-config",
    "--null",
    "--files",
    "--sort=path",
    ...WALK_FLAGS,
    "--",
    query.target,
  ];
}

export function ripgrepArgv(query: GrepQuery): string[] {
  return [
    "rg",
    "--no-config",
    "--null",
    "--line-number",
    "--with-filename",
    "--no-heading",
    "--color=never",
    // One file after another in walk order, as the JS backend: the cap keeps the same hits.
    "--sort=path",
    `--max-columns=${RG_MAX_COLUMNS}`,
    "--max-columns-preview",
    `--max-count=${query.filesOnly ? 1 : GREP_MAX_RESULTS + 1}`,
    ...WALK_FLAGS,
    ...(query.ignoreCase ? ["--ignore-case"] : []),
    "--regexp",
    query.pattern,
    "--",
    query.target,
  ];
}

interface RgSearch {
  query: GrepQuery;
  passes: (absolute: string) => boolean;
  /** Files the read gate covers: their hits are dropped. */
  covered: ReadonlySet<string>;
  hits: GrepHits;
}

export async function grepWithRipgrep(
  query: GrepQuery,
  env: NodeJS.ProcessEnv,
): Promise<GrepOutcome> {
  if (query.signal?.aborted) return GREP_CANCELLED;
  const passes = globFilter(query);
  let covered: ReadonlySet<string> = new Set();
  if (query.readable?.active) {
    const listed = await coveredFiles(query, passes, env);
    if (!(listed instanceof Set)) return listed;
    covered = listed;
  }
  const outcome = await runSearch({ query, passes, covered, hits: emptyHits() }, env);
  // rg follows a folder swapped for a symlink while it runs: its hits are checked after it.
  if (!outcome.ok || !query.real) return outcome;
  return { ok: true, hits: await verifiedHits(outcome.hits, query.real) };
}

/** The files the search reaches (after the glob) that the read gate covers, each counted once. */
function coveredFiles(
  query: GrepQuery,
  passes: (absolute: string) => boolean,
  env: NodeJS.ProcessEnv,
): Promise<Set<string> | GrepOutcome> {
  const covered = new Set<string>();
  const names = lineSplitter((name) => {
    const path = resolve(query.root, name.toString("utf8"));
    if (passes(path) && query.readable?.passes(path) === false) covered.add(path);
    return true;
  }, 0);
  const rg = startRg(ripgrepFilesArgv(query), query, env, (code, stderr) => {
    names.end();
    // 1: no files at all; 2: some could not be read (they are not searched either).
    if (code === 0 || code === 1 || code === 2) return covered;
    return { ok: false, error: failureMessage(stderr.split("\n")) };
  });
  rg.child.stdout?.on("data", (chunk: Buffer) => names.push(chunk));
  return rg.finished;
}

function runSearch(search: RgSearch, env: NodeJS.ProcessEnv): Promise<GrepOutcome> {
  const lines = lineSplitter((line) => readRecord(line, search));
  let stoppedWith: string | null = null;
  const rg = startRg(ripgrepArgv(search.query), search.query, env, (code, stderr) => {
    lines.end();
    return outcome(search.hits, code, stoppedWith ?? stderr);
  });
  rg.child.stdout?.on("data", (chunk: Buffer) => {
    if (lines.push(chunk)) return;
    // Enough hits: stop rg. What it says after this (a closed pipe) is no warning of ours.
    stoppedWith = rg.stderr();
    rg.child.kill("SIGKILL");
    rg.child.stdout?.destroy();
  });
  return rg.finished;
}

interface RgRun<T> {
  child: ChildProcess;
  /** What rg wrote to stderr so far, bounded. */
  stderr(): string;
  /** `settle`'s answer once rg exits, or the failure to start it, or the cancellation. */
  finished: Promise<T | GrepOutcome>;
}

/** Spawns rg in its own process group, killed on abort or shutdown; `settle` reads its exit. */
function startRg<T>(
  argv: string[],
  query: GrepQuery,
  env: NodeJS.ProcessEnv,
  settle: (code: number | null, stderr: string) => T | GrepOutcome,
): RgRun<T> {
  const [name = "rg", ...args] = argv;
  // Tethered like every other child (runner/lifeline.ts): a SIGKILLed codewhale leaves no rg.
  const tethered = spawnTethered({
    argv: [findExecutable(name, env.PATH) ?? name, ...args],
    cwd: query.root,
    env,
    stdin: "ignore",
    mergeStderr: false,
  });
  const child = tethered.child;
  const guard = guardProcessTree(child.pid, { graceMs: 1000, signal: query.signal });
  const stderr = collectText(child);
  const finished = new Promise<T | GrepOutcome>((done) => {
    const end = (outcome: T | GrepOutcome) => {
      guard.dispose();
      void tethered.release();
      done(outcome);
    };
    // `close` waits for every pipe, the lifeline's too: let the watcher go once rg has exited.
    child.once("exit", () => void tethered.release());
    child.once("error", (error) => end({ ok: false, error: `could not run rg: ${error.message}` }));
    child.once("close", (code) =>
      end(guard.flags.cancelled ? GREP_CANCELLED : settle(code, stderr())),
    );
  });
  return { child, stderr, finished };
}

function outcome(hits: GrepHits, code: number | null, stderr: string): GrepOutcome {
  const messages = stderr
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => line.replace(/^rg: /, ""));
  const found = hits.matches.length > 0 || hits.files.length > 0;
  if (code === 2 && !found) return { ok: false, error: failureMessage(messages) };
  hits.warnings.push(...messages);
  return { ok: true, hits };
}

/** Reads one line of rg's output, a hit or a note; returns whether to go on. */
function readRecord(record: Buffer, search: RgSearch): boolean {
  const nul = record.indexOf(0);
  const colon = nul < 0 ? -1 : record.indexOf(":", nul + 1);
  const digits = colon < 0 ? "" : record.toString("latin1", nul + 1, colon);
  if (!/^[1-9]\d*$/.test(digits)) {
    dropBinaryFile(record.toString("utf8").replaceAll("\0", ""), search);
    return true;
  }
  const line = Number(digits);
  const path = resolve(search.query.root, record.toString("utf8", 0, nul));
  if (!search.passes(path) || search.covered.has(path)) return true;
  // Bytes that are not UTF-8 become U+FFFD here, exactly as the JS backend decodes them.
  const text = cutGrepLine(bareLine(record.toString("utf8", colon + 1)));
  return addHit(search.hits, search.query.filesOnly, { path, line, text });
}

/** A binary file is skipped, as by the JS backend: its hits printed before the NUL go. */
function dropBinaryFile(note: string, search: RgSearch): void {
  const shown = BINARY_NOTE.exec(note)?.[1];
  if (shown === undefined) return;
  const path = resolve(search.query.root, shown);
  const { matches, files } = search.hits;
  while (matches.length > 0 && matches[matches.length - 1]?.path === path) matches.pop();
  while (files.length > 0 && files[files.length - 1] === path) files.pop();
}

interface LineSplitter {
  /** Feeds bytes; false once `onLine` asked to stop (later bytes are ignored). */
  push(chunk: Buffer): boolean;
  /** Feeds the last line when the stream did not end with `\n`. */
  end(): void;
}

/** Splits a byte stream into lines (without the `end` byte, `\n` by default), holding only the unfinished one. */
function lineSplitter(onLine: (line: Buffer) => boolean, end = 10): LineSplitter {
  let parts: Buffer[] = [];
  let open = true;
  return {
    push(chunk) {
      let start = 0;
      for (let at = chunk.indexOf(end); open && at >= 0; at = chunk.indexOf(end, start)) {
        const piece = chunk.subarray(start, at);
        const line = parts.length > 0 ? Buffer.concat([...parts, piece]) : piece;
        parts = [];
        start = at + 1;
        open = onLine(line);
      }
      if (open && start < chunk.length) parts.push(chunk.subarray(start));
      return open;
    },
    end() {
      if (open && parts.length > 0) onLine(Buffer.concat(parts));
      parts = [];
    },
  };
}

/** The child's stderr, up to a bound. */
function collectText(child: ChildProcess): () => string {
  let text = "";
  child.stderr?.setEncoding("utf8");
  child.stderr?.on("data", (chunk: string) => {
    if (text.length < MAX_STDERR_CHARS) text += chunk.slice(0, MAX_STDERR_CHARS - text.length);
  });
  return () => text;
}

/** rg's error, in the JS backend's shape for a bad regex ("invalid regex: unclosed group"). */
function failureMessage(messages: readonly string[]): string {
  const text = messages.join("\n").trim();
  if (!text.startsWith("regex parse error")) return text || "rg failed";
  const reason = /^error: (.*)$/m.exec(text)?.[1] ?? text;
  return `invalid regex: ${reason}`;
}

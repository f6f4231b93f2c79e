// The grep backend used when `rg` is not on the PATH: walks the workspace with the same
// .gitignore rules as glob (walk.ts), then matches lines with a JavaScript RegExp on a worker
// thread, so a pattern that backtracks for hours cannot freeze the session: a line that takes
// longer than the limit, or an abort, terminates the worker. Reads files as rg does (UTF-8,
// BOM-aware, NUL means binary) and stops at the same cap on hits.
import { existsSync } from "node:fs";
import { realpath, stat } from "node:fs/promises";
import { Worker } from "node:worker_threads";
import { errorMessage } from "../../errors.ts";
import type { GrepHits, GrepMatch, GrepOutcome, GrepQuery } from "./grep-search.ts";
import {
  cutGrepLine,
  emptyHits,
  GREP_CANCELLED,
  GREP_MAX_LINE_CHARS,
  GREP_MAX_RESULTS,
  globFilter,
} from "./grep-search.ts";
import { displayPath } from "./paths.ts";
import { walkFiles } from "./walk.ts";

export interface JsGrepOptions {
  /** How long the regex may take on one line before the search is stopped; default 10 s. */
  lineTimeLimitMs?: number;
}

export const DEFAULT_LINE_TIME_LIMIT_MS = 10_000;
/** The worker's heap: a bound on what one search (its longest line above all) may hold. */
const WORKER_HEAP_MB = 512;

export async function grepWithJs(
  query: GrepQuery,
  options: JsGrepOptions = {},
): Promise<GrepOutcome> {
  const regex = compile(query.pattern, query.ignoreCase);
  if (typeof regex === "string") return { ok: false, error: `invalid regex: ${regex}` };
  const files = await candidates(query);
  if (query.signal?.aborted) return GREP_CANCELLED;
  if (files.length === 0) return { ok: true, hits: emptyHits() };
  const input: WorkerInput = {
    files,
    target: query.target,
    ...(await realPrefix(query.target)),
    source: regex.source,
    flags: regex.flags,
    filesOnly: query.filesOnly,
    cap: GREP_MAX_RESULTS,
    maxChars: GREP_MAX_LINE_CHARS,
  };
  return runWorker(input, query, options.lineTimeLimitMs ?? DEFAULT_LINE_TIME_LIMIT_MS);
}

async function candidates(query: GrepQuery): Promise<string[]> {
  const passes = globFilter(query);
  const readable = (file: string) => query.readable?.passes(file) ?? true;
  const info = await stat(query.target);
  if (info.isFile()) return passes(query.target) && readable(query.target) ? [query.target] : [];
  const files: string[] = [];
  const realRoot = query.real?.root;
  const walk = walkFiles({
    root: query.root,
    start: query.target,
    signal: query.signal,
    ...(realRoot === undefined ? {} : { realRoot }),
  });
  for await (const file of walk) if (passes(file) && readable(file)) files.push(file);
  return files;
}

/**
 * Where the walk's paths really are, so the worker can check that each file it opens is the one
 * the walk found (a folder swapped for a symlink since would lead elsewhere): Linux only, where
 * an open descriptor names its file (/proc/self/fd).
 */
async function realPrefix(target: string): Promise<Pick<WorkerInput, "real">> {
  if (!existsSync("/proc/self/fd")) return {};
  const real = await realpath(target).catch(() => undefined);
  return real === undefined ? {} : { real: { given: target, real } };
}

/** The RegExp, in Unicode mode when the pattern compiles so; or the compile error. */
function compile(pattern: string, ignoreCase: boolean): RegExp | string {
  const flags = ignoreCase ? "i" : "";
  try {
    return new RegExp(pattern, `${flags}u`);
  } catch {
    try {
      return new RegExp(pattern, flags);
    } catch (error) {
      return errorMessage(error);
    }
  }
}

interface WorkerInput {
  /** Absolute paths, in walk order. */
  files: string[];
  /** The search's target (a file, or the folder walked). */
  target: string;
  /** The target as given and as really is, to check where each opened file is (Linux). */
  real?: { given: string; real: string };
  source: string;
  flags: string;
  filesOnly: boolean;
  cap: number;
  maxChars: number;
}

interface WorkerResult {
  matches: GrepMatch[];
  warnings: string[];
  capped: boolean;
}

/** Slots of the progress array the worker updates and the watchdog reads. */
const TICKS = 0;
const FILE_INDEX = 1;
const LINE_NUMBER = 2;

/** Starts the worker and settles on its result, an error, the time limit or an abort. */
function runWorker(input: WorkerInput, query: GrepQuery, limitMs: number): Promise<GrepOutcome> {
  const progress = new Int32Array(new SharedArrayBuffer(3 * Int32Array.BYTES_PER_ELEMENT));
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { input, progress },
    execArgv: [],
    resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
  });
  return new Promise((resolve) => {
    let settled = false;
    const finish = (outcome: GrepOutcome) => {
      if (settled) return;
      settled = true;
      stopWatching();
      query.signal?.removeEventListener("abort", onAbort);
      void worker.terminate();
      resolve(outcome);
    };
    const onAbort = () => finish(GREP_CANCELLED);
    const stopWatching = watchStalls(progress, limitMs, () =>
      finish({ ok: false, error: stallMessage(input, progress, query.root, limitMs) }),
    );
    query.signal?.addEventListener("abort", onAbort, { once: true });
    if (query.signal?.aborted) onAbort();
    worker.once("message", (result: WorkerResult) =>
      finish({ ok: true, hits: toHits(result, query.filesOnly) }),
    );
    worker.once("error", (error) => finish({ ok: false, error: workerFailure(error) }));
    worker.once("exit", (code) => finish({ ok: false, error: `grep stopped (exit code ${code})` }));
  });
}

/** Calls `onStall` once the worker's tick count has not moved for `limitMs`. */
function watchStalls(progress: Int32Array, limitMs: number, onStall: () => void): () => void {
  let seen = Atomics.load(progress, TICKS);
  let since = Date.now();
  const timer = setInterval(
    () => {
      const ticks = Atomics.load(progress, TICKS);
      if (ticks !== seen) {
        seen = ticks;
        since = Date.now();
      } else if (Date.now() - since >= limitMs) onStall();
    },
    Math.max(10, Math.min(250, limitMs / 10)),
  );
  return () => clearInterval(timer);
}

function stallMessage(
  input: WorkerInput,
  progress: Int32Array,
  root: string,
  limitMs: number,
): string {
  const file = input.files[Atomics.load(progress, FILE_INDEX)] ?? "";
  const where = `${displayPath(root, file)}:${Atomics.load(progress, LINE_NUMBER)}`;
  return (
    `the pattern took longer than ${limitMs / 1000} s on one line (${where}); simplify it: ` +
    "nested quantifiers such as (a+)+ can take exponential time"
  );
}

function workerFailure(error: Error): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "ERR_WORKER_OUT_OF_MEMORY") {
    return `the search ran out of memory (over ${WORKER_HEAP_MB} MB; a very long line?): narrow the path or glob`;
  }
  return `grep failed: ${errorMessage(error)}`;
}

function toHits(result: WorkerResult, filesOnly: boolean): GrepHits {
  const hits = emptyHits();
  hits.warnings = result.warnings;
  hits.capped = result.capped;
  if (filesOnly) hits.files = result.matches.map((match) => match.path);
  else hits.matches = result.matches.map((match) => ({ ...match, text: cutGrepLine(match.text) }));
  return hits;
}

/**
 * Runs inside the worker (self-contained: it is eval'd, in the bundle and under tsx alike).
 * Reads each file in 1 MB chunks and tests its lines, ticking `progress` on every line and chunk.
 * Returns hits in walk order; in files-only mode, one hit per file. Its helpers are methods of
 * one object: the bundle's minifier wraps named inner functions in a helper the worker lacks.
 */
function searchFiles(require: NodeJS.Require, input: WorkerInput, progress: Int32Array) {
  const fs = require("node:fs") as typeof import("node:fs");
  const regex = new RegExp(input.source, input.flags);
  const result: WorkerResult = { matches: [], warnings: [], capped: false };
  const chunk = Buffer.allocUnsafe(1 << 20);
  const file = { path: "", line: 0, hits: [] as GrepMatch[] };
  const scan = {
    /** Tests complete lines; false once the file (or the whole search) has enough. */
    lines(text: string): boolean {
      for (const raw of text.split("\n")) {
        file.line++;
        Atomics.store(progress, 2, file.line);
        Atomics.add(progress, 0, 1);
        const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
        if (!regex.test(line)) continue;
        // One character past the limit goes back, so the cut (cutGrepLine) can see it.
        const text = line.length > input.maxChars ? line.slice(0, input.maxChars + 1) : line;
        file.hits.push({ path: file.path, line: file.line, text });
        if (input.filesOnly || result.matches.length + file.hits.length > input.cap) return false;
      }
      return true;
    },

    /** UTF-16 with a BOM (rg transcodes it): decoded whole. False when binary. */
    utf16(fd: number, encoding: string): boolean {
      const text = new TextDecoder(encoding).decode(fs.readFileSync(fd));
      if (text.includes("\0")) return false;
      const body = text.endsWith("\n") ? text.slice(0, -1) : text;
      if (body !== "") scan.lines(body);
      return true;
    },

    /** UTF-8 (a BOM dropped, bad bytes as U+FFFD), chunk by chunk. False when binary. */
    utf8(fd: number): boolean {
      let parts: Buffer[] = [];
      for (let read = fs.readSync(fd, chunk); read > 0; read = fs.readSync(fd, chunk)) {
        Atomics.add(progress, 0, 1);
        let view = chunk.subarray(0, read);
        if (view.includes(0)) return false;
        const atStart = file.line === 0 && parts.length === 0;
        if (atStart && view[0] === 0xef && view[1] === 0xbb && view[2] === 0xbf) {
          view = view.subarray(3);
        }
        const last = view.lastIndexOf(10);
        if (last < 0) {
          parts.push(Buffer.from(view));
          continue;
        }
        const head = Buffer.concat([...parts, view.subarray(0, last)]);
        parts = last + 1 < view.length ? [Buffer.from(view.subarray(last + 1))] : [];
        if (!scan.lines(head.toString("utf8"))) return true;
      }
      if (parts.length > 0) scan.lines(Buffer.concat(parts).toString("utf8"));
      return true;
    },

    /** Searches the open file by its BOM; false when it is binary. */
    file(fd: number): boolean {
      const bom = Buffer.alloc(2);
      fs.readSync(fd, bom, 0, 2, 0);
      if (bom[0] === 0xff && bom[1] === 0xfe) return scan.utf16(fd, "utf-16le");
      if (bom[0] === 0xfe && bom[1] === 0xff) return scan.utf16(fd, "utf-16be");
      return scan.utf8(fd);
    },
  };

  for (let index = 0; index < input.files.length; index++) {
    Object.assign(file, { path: input.files[index] ?? "", line: 0, hits: [] });
    Atomics.store(progress, 1, index);
    Atomics.add(progress, 0, 1);
    let fd = -1;
    try {
      // Never through a symlink, and only the file the walk found (a read rule judged that path).
      // The target itself (a file named by path) may be a link the path check followed.
      const { O_RDONLY, O_NOFOLLOW, O_NONBLOCK } = fs.constants;
      const walked = file.path !== input.target;
      fd = fs.openSync(file.path, O_RDONLY | O_NONBLOCK | (walked ? O_NOFOLLOW : 0));
      const where = input.real ? fs.readlinkSync(`/proc/self/fd/${fd}`) : undefined;
      const expected = input.real && input.real.real + file.path.slice(input.real.given.length);
      if (where !== expected || !fs.fstatSync(fd).isFile()) {
        result.warnings.push(`${file.path}: changed while it was being searched; skipped`);
      } else if (scan.file(fd)) result.matches.push(...file.hits);
    } catch (error) {
      result.warnings.push(`${file.path}: ${(error as Error).message}`);
    } finally {
      if (fd >= 0) fs.closeSync(fd);
    }
    if (result.matches.length > input.cap) {
      result.matches.length = input.cap;
      result.capped = true;
      break;
    }
  }
  return result;
}

const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const searchFiles = ${searchFiles.toString()};
parentPort.postMessage(searchFiles(require, workerData.input, workerData.progress));
`;

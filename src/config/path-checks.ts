// The filesystem checks of the path keys: `system_prompt_file` must be a readable regular file
// of at most 1 MiB, and `session_dir` must be (or be creatable as) a directory. load.ts runs
// them on every layer; the agent reads the prompt file through `readPromptFile`, the same check.
// `readRegularFile` (stat, open, fstat, bounded read) also reads the config files (files.ts).
import type { Stats } from "node:fs";
import { closeSync, constants, fstatSync, openSync, readSync, statSync } from "node:fs";
import { dirname } from "node:path";
import type { ConfigError } from "../errors.ts";
import { errorMessage } from "../errors.ts";
import type { Table } from "./merge.ts";
import type { ProblemOrigin } from "./problems.ts";
import { configProblem } from "./problems.ts";

/** The largest system prompt file accepted, in bytes (1 MiB). */
export const MAX_PROMPT_FILE_BYTES = 1024 * 1024;

export type PromptFileRead = { ok: true; text: string } | { ok: false; problem: string };

/** The problems of a layer's `system_prompt_file` and `session_dir`; `data` has absolute paths. */
export function pathKeyProblems(data: Table, origin: ProblemOrigin): ConfigError[] {
  const problems: ConfigError[] = [];
  const prompt = data.system_prompt_file;
  if (typeof prompt === "string") {
    const problem = prompt === "" ? EMPTY : checkPromptFile(prompt);
    if (problem) problems.push(configProblem(origin, ["system_prompt_file"], problem));
  }
  const sessions = data.session_dir;
  if (typeof sessions === "string") {
    const problem = sessions === "" ? EMPTY : sessionDirProblem(sessions);
    if (problem) problems.push(configProblem(origin, ["session_dir"], problem));
  }
  return problems;
}

const EMPTY = "expected a path, received an empty string";

/** Why `path` cannot be the system prompt file, or undefined when it can. */
export function checkPromptFile(path: string): string | undefined {
  const opened = openRegularFile(path, MAX_PROMPT_FILE_BYTES);
  if (!opened.ok) return promptProblem(path, opened);
  closeSync(opened.fd);
  return undefined;
}

/** The prompt file's text, refusing anything but a readable regular file of at most 1 MiB. */
export function readPromptFile(path: string): PromptFileRead {
  const read = readRegularFile(path, MAX_PROMPT_FILE_BYTES);
  return read.ok ? read : { ok: false, problem: promptProblem(path, read) };
}

function promptProblem(path: string, failure: RegularFailure): string {
  if (failure.reason === "not-regular") {
    return `${path} is not a regular file (it is ${fileKindOf(failure.stats)})`;
  }
  if (failure.reason === "too-large") return tooLarge(path, failure.bytes);
  return unreadable(path, failure.error);
}

/** Why a file could not be opened or read whole. */
export type RegularFailure =
  | { ok: false; reason: "not-regular"; stats: Stats }
  | { ok: false; reason: "too-large"; bytes: number | "more" }
  | { ok: false; reason: "error"; error: unknown };

/**
 * Opens `path` only after `stat` says it is a regular file of at most `maxBytes`, so a device
 * or FIFO is never opened; then checks the open descriptor again, in case the path changed
 * meanwhile. Shared by the prompt file and the config files (files.ts).
 */
export function openRegularFile(
  path: string,
  maxBytes: number,
): { ok: true; fd: number; size: number } | RegularFailure {
  let fd: number;
  try {
    const before = regularFailure(statSync(path), maxBytes);
    if (before) return before;
    fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    return { ok: false, reason: "error", error };
  }
  const stats = fstatSync(fd);
  const after = regularFailure(stats, maxBytes);
  if (!after) return { ok: true, fd, size: stats.size };
  closeSync(fd);
  return after;
}

/** The whole text of a regular file of at most `maxBytes`, checked as `openRegularFile` does. */
export function readRegularFile(
  path: string,
  maxBytes: number,
): { ok: true; text: string } | RegularFailure {
  const opened = openRegularFile(path, maxBytes);
  if (!opened.ok) return opened;
  try {
    // Read to the end, never past one byte over the limit: a file that grew since it was
    // checked still cannot pass.
    const parts: Buffer[] = [];
    let total = 0;
    while (total <= maxBytes) {
      const want = Math.max(opened.size + 1 - total, 64 * 1024);
      const part = Buffer.allocUnsafe(Math.min(want, maxBytes + 1 - total));
      const count = readSync(opened.fd, part, 0, part.length, null);
      if (count === 0) return { ok: true, text: Buffer.concat(parts, total).toString("utf8") };
      parts.push(part.subarray(0, count));
      total += count;
    }
    return { ok: false, reason: "too-large", bytes: "more" };
  } catch (error) {
    return { ok: false, reason: "error", error };
  } finally {
    closeSync(opened.fd);
  }
}

function regularFailure(stats: Stats, maxBytes: number): RegularFailure | undefined {
  if (!stats.isFile()) return { ok: false, reason: "not-regular", stats };
  if (stats.size > maxBytes) return { ok: false, reason: "too-large", bytes: stats.size };
  return undefined;
}

function tooLarge(path: string, bytes: number | "more"): string {
  const size = bytes === "more" ? `more than ${MAX_PROMPT_FILE_BYTES}` : String(bytes);
  return `${path} is larger than 1 MiB (${size} bytes)`;
}

/** What a path that is not a regular file is, for messages: "a FIFO", "a directory", … */
export function fileKindOf(stats: Stats): string {
  if (stats.isDirectory()) return "a directory";
  if (stats.isCharacterDevice()) return "a character device";
  if (stats.isBlockDevice()) return "a block device";
  if (stats.isFIFO()) return "a FIFO";
  if (stats.isSocket()) return "a socket";
  return "not a regular file";
}

function unreadable(path: string, error: unknown): string {
  const code = (error as { code?: unknown }).code;
  if (code === "ENOENT" || code === "ENOTDIR") return `${path} does not exist`;
  if (code === "EACCES" || code === "EPERM") return `${path} is not readable (permission denied)`;
  return `cannot read ${path}: ${errorMessage(error)}`;
}

/**
 * Why `dir` cannot hold session logs: it exists and is not a directory, or the nearest part of
 * it that exists is not one (so it cannot be created). Undefined when it is, or may be, fine.
 */
export function sessionDirProblem(dir: string): string | undefined {
  for (let here = dir; ; here = dirname(here)) {
    const stats = statIfPresent(here);
    if (stats === "unknown") return undefined;
    if (stats !== undefined) {
      if (stats.isDirectory()) return undefined;
      if (here === dir) return `${dir} is not a directory`;
      return `${dir} cannot be created: ${here} is not a directory`;
    }
    if (dirname(here) === here) return undefined;
  }
}

/** The stats of `path`; undefined when nothing is there, "unknown" when it cannot be told. */
function statIfPresent(path: string): Stats | undefined | "unknown" {
  try {
    return statSync(path);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    return code === "ENOENT" || code === "ENOTDIR" ? undefined : "unknown";
  }
}

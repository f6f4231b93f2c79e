// The filesystem checks of the path keys: `system_prompt_file` must be a readable regular file
// of at most 1 MiB, and `session_dir` must be (or be creatable as) a directory. load.ts runs
// them on every layer; the agent reads the prompt file through `readPromptFile`, the same check.
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
  const opened = openPromptFile(path);
  if (!opened.ok) return opened.problem;
  closeSync(opened.fd);
  return undefined;
}

/** The prompt file's text, refusing anything but a readable regular file of at most 1 MiB. */
export function readPromptFile(path: string): PromptFileRead {
  const opened = openPromptFile(path);
  if (!opened.ok) return opened;
  try {
    // One byte more than the limit: a file that grew since it was checked still cannot pass.
    const buffer = Buffer.allocUnsafe(MAX_PROMPT_FILE_BYTES + 1);
    let length = 0;
    let count = -1;
    while (count !== 0 && length < buffer.length) {
      count = readSync(opened.fd, buffer, length, buffer.length - length, null);
      length += count;
    }
    if (length > MAX_PROMPT_FILE_BYTES) return { ok: false, problem: tooLarge(path, "more") };
    return { ok: true, text: buffer.toString("utf8", 0, length) };
  } catch (error) {
    return { ok: false, problem: unreadable(path, error) };
  } finally {
    closeSync(opened.fd);
  }
}

type Opened = { ok: true; fd: number } | { ok: false; problem: string };

/**
 * Opens `path` only after `stat` says it is a small regular file, so a device or FIFO is
 * never opened; then checks the open descriptor again, in case the path changed meanwhile.
 */
function openPromptFile(path: string): Opened {
  let fd: number;
  try {
    const before = regularFileProblem(path, statSync(path));
    if (before) return { ok: false, problem: before };
    fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    return { ok: false, problem: unreadable(path, error) };
  }
  const after = regularFileProblem(path, fstatSync(fd));
  if (!after) return { ok: true, fd };
  closeSync(fd);
  return { ok: false, problem: after };
}

function regularFileProblem(path: string, stats: Stats): string | undefined {
  if (!stats.isFile()) return `${path} is not a regular file (it is ${fileKindOf(stats)})`;
  if (stats.size > MAX_PROMPT_FILE_BYTES) return tooLarge(path, stats.size);
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

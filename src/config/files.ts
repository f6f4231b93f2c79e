// Finds and reads the config files: the user file `$CODEWHALE_HOME/config.toml` and the nearest
// project file `.codewhale/config.toml` from the cwd upwards. Each file is parsed with smol-toml
// and checked on its own by the zod schema, so a mistake is reported against the file that made
// it. A config path that exists but is not a regular file (a directory, FIFO, device, dangling
// link) is a problem.
import { lstatSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { parse, TomlError } from "smol-toml";
import type { z } from "zod";
import { ConfigError, errorMessage } from "../errors.ts";
import { BUILTIN_PROVIDER_NAMES } from "./builtins.ts";
import { type ForeignConfig, isForeignConfig, readForeignConfig } from "./foreign-config.ts";
import { type Env, expandTilde } from "./home.ts";
import type { KeySegment } from "./key-path.ts";
import { createLineLocator } from "./locate-lines.ts";
import { isTable, type Table } from "./merge.ts";
import { fileKindOf, readRegularFile } from "./path-checks.ts";
import type { ProblemOrigin } from "./problems.ts";
import { configProblem, problemsFromIssues } from "./problems.ts";
import { configFileSchema, ONE_PARSE } from "./schema.ts";

export type { Env } from "./home.ts";

export interface ConfigFile {
  kind: "user" | "project";
  path: string;
  /** The other Codewhale wrote it: what was read of it and what ignored (foreign-config.ts). */
  foreign?: ForeignConfig;
}

export interface ReadFile extends ConfigFile {
  text: string;
  /** The parsed table, or undefined when the file could not be read or parsed. */
  data: Table | undefined;
  problems: ConfigError[];
}

/** Keys holding a path; a relative one resolves against the setter's base directory. */
const PATH_KEYS = ["session_dir", "system_prompt_file"] as const;
/** Keys holding a list of paths, resolved the same way. */
const PATH_LIST_KEYS = ["allowed_prompt_dirs"] as const;
/** Keys only the user file may set: they say what the user trusts (or lets go of). */
const USER_ONLY_KEYS: readonly (readonly string[])[] = [
  ["trusted_projects"],
  ["allowed_prompt_dirs"],
  ["protected_paths"],
  ["permissions", "unprotect"],
];
/**
 * The user file codewhale alone writes beside `config.toml` when that one belongs to the other
 * Codewhale too (foreign-config.ts); read after it, so its settings win.
 */
const OWN_USER_FILE = "codewhale.toml";
/** The largest config file read, in bytes; a bigger one is a problem, never read whole. */
export const MAX_CONFIG_FILE_BYTES = 16 * 1024 * 1024;

export { resolveHome } from "./home.ts";

/**
 * The config files that exist: the user file, then the project file. Anything at a config path
 * counts, a directory or a FIFO included: reading it then reports why it is not a config file.
 */
export function locateConfigFiles(cwd: string, home: string): ConfigFile[] {
  const files: ConfigFile[] = [];
  const userPath = join(home, "config.toml");
  if (isPresent(userPath)) files.push({ kind: "user", path: userPath });
  const ownPath = join(home, OWN_USER_FILE);
  if (isPresent(ownPath)) files.push({ kind: "user", path: ownPath });
  const project = findProjectConfig(cwd, userPath);
  if (project) files.push({ kind: "project", path: project });
  return files;
}

/**
 * The user file codewhale writes to (trust records, allow rules, MCP servers): `codewhale.toml`
 * when it exists or when `config.toml` belongs to the other Codewhale too (codewhale never
 * writes into that tool's file), else `config.toml`.
 */
export function writableUserFile(home: string): string {
  const own = join(home, OWN_USER_FILE);
  if (isPresent(own)) return own;
  const shared = join(home, "config.toml");
  if (!isPresent(shared)) return shared;
  return readConfigFile({ kind: "user", path: shared }).foreign ? own : shared;
}

/** The nearest `.codewhale/config.toml` at or above `cwd`, never the user file itself. */
export function findProjectConfig(cwd: string, userFile: string): string | undefined {
  let dir = resolve(cwd);
  for (;;) {
    const candidate = join(dir, ".codewhale", "config.toml");
    if (candidate !== userFile && isPresent(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/** Reads, parses and validates one file. Problems are collected, never thrown. */
export function readConfigFile(file: ConfigFile): ReadFile {
  const read = readConfigText(file.path);
  if (!read.ok) {
    const problem = configProblem({ source: file.path }, [], read.problem);
    return { ...file, text: "", data: undefined, problems: [problem] };
  }
  const { text } = read;
  const origin = fileOrigin(file.path, text);
  const parsed = parseChecked(file.path, text, origin);
  if ("syntax" in parsed) return { ...file, text, data: undefined, problems: [parsed.syntax] };
  const { data, problems, foreign } = parsed;
  for (const key of file.kind === "project" ? USER_ONLY_KEYS : []) {
    if (valueAt(data, key) === undefined) continue;
    problems.push(configProblem(origin, key, "only allowed in the user config file"));
  }
  problems.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
  return { ...file, text, data, problems, ...(foreign ? { foreign } : {}) };
}

function valueAt(data: Table, key: readonly string[]): unknown {
  let value: unknown = data;
  for (const segment of key) value = isTable(value) ? value[segment] : undefined;
  return value;
}

/** A file's table and its schema problems, or its syntax error. */
function parseChecked(
  path: string,
  text: string,
  origin: ProblemOrigin,
): { data: Table; problems: ConfigError[]; foreign?: ForeignConfig } | { syntax: ConfigError } {
  let data: Table;
  try {
    data = parse(text) as Table;
  } catch (error) {
    return { syntax: syntaxProblem(path, error) };
  }
  const proto = text.includes("__proto__") ? protoKeyPath(data) : null;
  if (proto) return { data, problems: [configProblem(origin, proto, PROTO_KEY)] };
  if (!isForeignConfig(data)) return { data, problems: validateLayer(data, () => origin) };
  const checked = configFileSchema.safeParse(data);
  const unknown = checked.success ? [] : unknownKeyPaths(checked.error.issues);
  const read = readForeignConfig(data, unknown, BUILTIN_PROVIDER_NAMES);
  return { ...read, problems: validateLayer(read.data, () => origin) };
}

/** The key paths a failed check found unknown. */
function unknownKeyPaths(issues: readonly z.core.$ZodIssue[]): KeySegment[][] {
  return issues.flatMap((issue) =>
    issue.code === "unrecognized_keys"
      ? issue.keys.map((key) => [
          ...issue.path.map((s) => (typeof s === "symbol" ? String(s) : s)),
          key,
        ])
      : [],
  );
}

const PROTO_KEY = 'a key named "__proto__" is not allowed';

/**
 * The path of the first `__proto__` key in a parsed file (depth first, in the file's order),
 * or null. TOML allows the name; in
 * JavaScript it is the one key an assignment takes as an object's prototype, and zod passes
 * over it in tables of names (it would stay in the config unchecked), so it is refused.
 */
function protoKeyPath(data: Table): KeySegment[] | null {
  const stack: Array<{ value: unknown; path: KeySegment[] }> = [{ value: data, path: [] }];
  for (let next = stack.pop(); next; next = stack.pop()) {
    const { value, path } = next;
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--)
        stack.push({ value: value[i], path: [...path, i] });
    } else if (isTable(value)) {
      const keys = Object.keys(value);
      if (keys.includes("__proto__")) return [...path, "__proto__"];
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i] as string;
        stack.push({ value: value[key], path: [...path, key] });
      }
    }
  }
  return null;
}

/** Checks a file's or the flags' values on their own (defaults are not involved). */
export function validateLayer(
  data: Table,
  originOf: Parameters<typeof problemsFromIssues>[1],
): ConfigError[] {
  const result = configFileSchema.safeParse(data, ONE_PARSE);
  return result.success
    ? []
    : problemsFromIssues(result.error.issues, originOf, data, configFileSchema);
}

export function fileOrigin(path: string, text: string): ProblemOrigin {
  return { source: path, text, locate: createLineLocator(text) };
}

/**
 * Makes `session_dir`, `system_prompt_file` and each of `allowed_prompt_dirs` absolute: `~/` is
 * $HOME, anything else relative is under `baseDir`.
 */
export function resolvePathKeys(data: Table, baseDir: string, env: Env): Table {
  const out = { ...data };
  const absolute = (value: unknown) =>
    typeof value === "string" && value !== "" ? resolve(baseDir, expandTilde(value, env)) : value;
  for (const key of PATH_KEYS) if (out[key] !== undefined) out[key] = absolute(out[key]);
  for (const key of PATH_LIST_KEYS) {
    const list = out[key];
    if (Array.isArray(list)) out[key] = list.map(absolute);
  }
  return out;
}

function syntaxProblem(path: string, error: unknown): ConfigError {
  const summary = errorMessage(error)
    .split("\n")[0]
    ?.replace(/^Invalid TOML document: /, "");
  if (!(error instanceof TomlError))
    return new ConfigError(`${path}: invalid TOML: ${summary}`, path);
  const where = `${path}:${error.line}:${error.column}`;
  return new ConfigError(`${where}: invalid TOML: ${summary}`, path, error.line);
}

/** Something is at `path`: a file, a directory, a FIFO, or a link (even a dangling one). */
function isPresent(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

type TextRead = { ok: true; text: string } | { ok: false; problem: string };

/**
 * A config file's text. Only a regular file of at most MAX_CONFIG_FILE_BYTES is opened and
 * read (path-checks.ts), so a FIFO, a device or a link to /dev/zero is reported, never read or
 * waited on.
 */
function readConfigText(path: string): TextRead {
  const read = readRegularFile(path, MAX_CONFIG_FILE_BYTES);
  if (read.ok) return read;
  if (read.reason === "not-regular") {
    return { ok: false, problem: `not a regular file (it is ${fileKindOf(read.stats)})` };
  }
  if (read.reason === "too-large") {
    const limit = MAX_CONFIG_FILE_BYTES / (1024 * 1024);
    return { ok: false, problem: `larger than ${limit} MiB; not read` };
  }
  return { ok: false, problem: cannotRead(read.error) };
}

function cannotRead(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  if (code === "ENOENT") return "cannot read: it is a link to nothing (a dangling link)";
  if (code === "ELOOP") return "cannot read: it is a link that loops";
  return `cannot read: ${errorMessage(error)}`;
}

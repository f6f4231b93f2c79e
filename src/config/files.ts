// Finds and reads the config files: the user file `$CODEWHALE_HOME/config.toml` and the nearest
// project file `.codewhale/config.toml` from the cwd upwards. Each file is parsed with smol-toml
// and checked on its own, so a mistake is reported against the file that made it.
import { existsSync, readFileSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { parse, TomlError } from "smol-toml";
import { ConfigError, errorMessage } from "../errors.ts";
import { createLineLocator } from "./locate-lines.ts";
import type { Table } from "./merge.ts";
import type { ProblemOrigin } from "./problems.ts";
import { configProblem, problemsFromIssues } from "./problems.ts";
import { configFileSchema } from "./schema.ts";

export type Env = Readonly<Record<string, string | undefined>>;

export interface ConfigFile {
  kind: "user" | "project";
  path: string;
}

export interface ReadFile extends ConfigFile {
  text: string;
  /** The parsed table, or undefined when the file could not be read or parsed. */
  data: Table | undefined;
  problems: ConfigError[];
}

/** Keys holding a path; a relative one resolves against the setter's base directory. */
const PATH_KEYS = ["session_dir", "system_prompt_file"] as const;

/** `$CODEWHALE_HOME`, or `~/.codewhale`. Always absolute. */
export function resolveHome(env: Env): string {
  const fromEnv = env.CODEWHALE_HOME;
  if (fromEnv) return resolve(expandTilde(fromEnv, env));
  return join(env.HOME || homedir(), ".codewhale");
}

/** The config files that exist: the user file, then the project file. */
export function locateConfigFiles(cwd: string, home: string): ConfigFile[] {
  const files: ConfigFile[] = [];
  const userPath = join(home, "config.toml");
  if (isFile(userPath)) files.push({ kind: "user", path: userPath });
  const project = findProjectConfig(cwd, userPath);
  if (project) files.push({ kind: "project", path: project });
  return files;
}

/** The nearest `.codewhale/config.toml` at or above `cwd`, never the user file itself. */
export function findProjectConfig(cwd: string, userFile: string): string | undefined {
  let dir = resolve(cwd);
  for (;;) {
    const candidate = join(dir, ".codewhale", "config.toml");
    if (candidate !== userFile && isFile(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/** Keys a project file may not set: they widen what the project is trusted with, or shrink the user's protection. */
const USER_FILE_ONLY = ["trusted_projects", "protected_paths"] as const;

/** Reads, parses and validates one file. Problems are collected, never thrown. */
export function readConfigFile(file: ConfigFile): ReadFile {
  let text: string;
  try {
    text = readFileSync(file.path, "utf8");
  } catch (error) {
    const problem = configProblem({ source: file.path }, [], `cannot read: ${errorMessage(error)}`);
    return { ...file, text: "", data: undefined, problems: [problem] };
  }
  const origin = fileOrigin(file.path, text);
  let data: Table;
  try {
    data = parse(text) as Table;
  } catch (error) {
    return { ...file, text, data: undefined, problems: [syntaxProblem(file.path, error)] };
  }
  const problems = validateLayer(data, () => origin);
  for (const key of USER_FILE_ONLY) {
    if (file.kind !== "project" || data[key] === undefined) continue;
    problems.push(configProblem(origin, [key], "only allowed in the user config file"));
  }
  problems.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
  return { ...file, text, data, problems };
}

/** Checks a file's or the flags' values on their own (defaults are not involved). */
export function validateLayer(
  data: Table,
  originOf: Parameters<typeof problemsFromIssues>[1],
): ConfigError[] {
  const result = configFileSchema.safeParse(data);
  return result.success ? [] : problemsFromIssues(result.error.issues, originOf, data);
}

export function fileOrigin(path: string, text: string): ProblemOrigin {
  return { source: path, text, locate: createLineLocator(text) };
}

/** Makes `session_dir` and `system_prompt_file` absolute: `~/` is $HOME, else `baseDir`. */
export function resolvePathKeys(data: Table, baseDir: string, env: Env): Table {
  const out = { ...data };
  for (const key of PATH_KEYS) {
    const value = out[key];
    if (typeof value === "string" && value !== "") {
      out[key] = resolve(baseDir, expandTilde(value, env));
    }
  }
  return out;
}

function expandTilde(path: string, env: Env): string {
  if (path === "~") return env.HOME || homedir();
  if (path.startsWith("~/")) return join(env.HOME || homedir(), path.slice(2));
  return path;
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

function isFile(path: string): boolean {
  return existsSync(path) && statSync(path).isFile();
}

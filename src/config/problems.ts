// Turns what can go wrong with a config (TOML syntax, zod issues, cross-key rules) into
// ConfigErrors whose message is one line: `file:line: key "x.y": message`. Callers say where
// the value came from; this module phrases it. Used by files.ts and load.ts.
import type { z } from "zod";
import { ConfigError } from "../errors.ts";
import type { KeySegment } from "./key-path.ts";
import { formatKeyPath } from "./key-path.ts";
import { nearestKey } from "./key-suggest.ts";

/** Where a bad value was written: a file (with its text, to find the line) or another source. */
export interface ProblemOrigin {
  /** A file path, "flag", "default" or "env NAME". */
  source: string;
  /** The file's text when `source` is a file. */
  text?: string;
  locate?: (path: readonly KeySegment[]) => number | undefined;
}

/** One ConfigError naming the origin, the line when known, and the key. */
export function configProblem(
  origin: ProblemOrigin,
  path: readonly KeySegment[],
  message: string,
): ConfigError {
  const key = formatKeyPath(path);
  const line = origin.locate?.(path);
  const where = line === undefined ? origin.source : `${origin.source}:${line}`;
  const text = key === "" ? `${where}: ${message}` : `${where}: key "${key}": ${message}`;
  const file = origin.text === undefined ? undefined : origin.source;
  return new ConfigError(text, file, line, key === "" ? undefined : key);
}

/**
 * Every problem in a failed zod parse; an issue naming several unknown keys gives one each,
 * with the nearest key `schema` knows there when one is close ("did you mean …").
 */
export function problemsFromIssues(
  issues: readonly z.core.$ZodIssue[],
  originOf: (path: readonly KeySegment[]) => ProblemOrigin,
  input: unknown,
  schema?: z.ZodType,
): ConfigError[] {
  const problems: ConfigError[] = [];
  for (const issue of issues) {
    const path = issue.path.map((s) => (typeof s === "symbol" ? String(s) : s));
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) {
        const full = [...path, key];
        const near = schema && nearestKey(schema, path, key);
        const message = near ? `unknown key (did you mean "${near}"?)` : "unknown key";
        problems.push(configProblem(originOf(full), full, message));
      }
    } else {
      const missing = valueAt(input, path) === undefined && issue.code !== "invalid_key";
      const message = missing ? "missing required key" : describeIssue(issue);
      problems.push(configProblem(originOf(path), path, message));
    }
  }
  return problems;
}

function valueAt(value: unknown, path: readonly KeySegment[]): unknown {
  let here = value;
  for (const segment of path) {
    if (typeof here !== "object" || here === null) return undefined;
    here = (here as Record<KeySegment, unknown>)[segment];
  }
  return here;
}

function describeIssue(issue: z.core.$ZodIssue): string {
  if (issue.code === "invalid_key") {
    return `invalid key: ${issue.issues[0]?.message ?? issue.message}`;
  }
  return issue.message.replace(/^Invalid input: /, "");
}

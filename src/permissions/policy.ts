// Builds a PermissionPolicy from the config's rule lists, each rule with the source that set
// it. A malformed rule is a ConfigError naming the rule and, when it came from a file, the
// file and line. Session grants ("allow for this session") add rules the same way.
import { readFileSync } from "node:fs";
import type { PermissionMode } from "../config/index.ts";
import { ConfigError } from "../errors.ts";
import type { PermissionPolicy } from "./evaluate.ts";
import type { PermissionRule } from "./rules.ts";
import { parseRule } from "./rules.ts";

/** One rule as configured: its text and where it came from (a file path, "flag", …). */
export interface RuleEntry {
  text: string;
  source: string;
}

export interface PolicyInput {
  mode: PermissionMode;
  allow: readonly RuleEntry[];
  ask: readonly RuleEntry[];
  deny: readonly RuleEntry[];
}

const LISTS = ["allow", "ask", "deny"] as const;

/** Every malformed rule, one ConfigError each. */
export function checkPolicy(input: PolicyInput): ConfigError[] {
  const problems: ConfigError[] = [];
  for (const list of LISTS) {
    for (const entry of input[list]) {
      const parsed = parseRule(entry.text);
      if (!parsed.ok) problems.push(ruleProblem(entry, list, parsed.message));
    }
  }
  return problems;
}

/** The policy, or a ConfigError for the first malformed rule. */
export function compilePolicy(input: PolicyInput): PermissionPolicy {
  const [first] = checkPolicy(input);
  if (first) throw first;
  const compile = (entries: readonly RuleEntry[]): PermissionRule[] =>
    entries.flatMap((entry) => {
      const parsed = parseRule(entry.text);
      return parsed.ok ? [parsed.rule] : [];
    });
  return {
    mode: input.mode,
    allow: compile(input.allow),
    ask: compile(input.ask),
    deny: compile(input.deny),
  };
}

/** The policy with one more allow rule, e.g. after "allow for this session". */
export function withGrant(policy: PermissionPolicy, ruleText: string): PermissionPolicy {
  const parsed = parseRule(ruleText);
  if (!parsed.ok) throw new Error(parsed.message);
  return { ...policy, allow: [...policy.allow, parsed.rule] };
}

function ruleProblem(entry: RuleEntry, list: string, message: string): ConfigError {
  const key = `permissions.${list}`;
  if (!entry.source.startsWith("/")) {
    return new ConfigError(`${entry.source}: key "${key}": ${message}`, undefined, undefined, key);
  }
  const line = locateRule(entry.source, entry.text);
  const where = line === undefined ? entry.source : `${entry.source}:${line}`;
  return new ConfigError(`${where}: key "${key}": ${message}`, entry.source, line, key);
}

/** The 1-based line of the file where the rule's string is written, if it can be found. */
function locateRule(file: string, text: string): number | undefined {
  let lines: string[];
  try {
    lines = readFileSync(file, "utf8").split(/\r?\n/);
  } catch {
    return undefined;
  }
  for (const needle of [JSON.stringify(text), `'${text}'`, text]) {
    const index = lines.findIndex((line) => line.includes(needle));
    if (index !== -1) return index + 1;
  }
  return undefined;
}

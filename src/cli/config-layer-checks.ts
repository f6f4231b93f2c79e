// The checks of one config layer that need more than the schema: permission rules (parsed by
// src/permissions, as exec parses them) and hook matchers (compiled as the hooks layer compiles
// them). `config check` and `doctor` run them on every file, so they refuse what exec refuses.
import { readFileSync } from "node:fs";
import type { ConfigLayer, LayerCheck } from "../config/index.ts";
import { HOOK_EVENTS } from "../config/index.ts";
import { ConfigError, errorMessage } from "../errors.ts";
import { compileMatcher } from "../hooks/index.ts";
import type { RuleEntry } from "../permissions/index.ts";
import { checkPolicy } from "../permissions/index.ts";

/** Every malformed rule in one layer's `[permissions]` lists, each named by file, line and key. */
export function permissionRuleProblems(layer: ConfigLayer): ConfigError[] {
  const permissions = layer.data.permissions;
  if (typeof permissions !== "object" || permissions === null) return [];
  const entries = (list: string): RuleEntry[] => {
    const rules = (permissions as Record<string, unknown>)[list];
    if (!Array.isArray(rules)) return [];
    return rules.flatMap((text) =>
      typeof text === "string" ? [{ text, source: layer.source }] : [],
    );
  };
  // checkPolicy reads the rule lists only; the mode is checked by the config schema.
  return checkPolicy({
    mode: "default",
    allow: entries("allow"),
    ask: entries("ask"),
    deny: entries("deny"),
  });
}

/** Every hook matcher in one layer that is not a valid regular expression. */
export function hookMatcherProblems(layer: ConfigLayer): ConfigError[] {
  const hooks = layer.data.hooks;
  if (typeof hooks !== "object" || hooks === null) return [];
  const problems: ConfigError[] = [];
  for (const event of HOOK_EVENTS) {
    const entries = (hooks as Record<string, unknown>)[event];
    if (!Array.isArray(entries)) continue;
    entries.forEach((entry, index) => {
      const matcher = (entry as { matcher?: unknown } | null)?.matcher;
      if (typeof matcher !== "string" || matcher === "" || matcher === "*") return;
      const problem = matcherProblem(matcher);
      if (problem === null) return;
      const key = `hooks.${event}[${index}].matcher`;
      const line = lineOf(layer.source, matcher);
      const where = line === undefined ? layer.source : `${layer.source}:${line}`;
      const message = `${where}: key "${key}": invalid regular expression: ${problem}`;
      problems.push(new ConfigError(message, fileOf(layer.source), line, key));
    });
  }
  return problems;
}

export const CONFIG_LAYER_CHECKS: LayerCheck[] = [permissionRuleProblems, hookMatcherProblems];

function matcherProblem(matcher: string): string | null {
  try {
    compileMatcher(matcher);
    return null;
  } catch (error) {
    return errorMessage(error);
  }
}

function fileOf(source: string): string | undefined {
  return source.startsWith("/") ? source : undefined;
}

/** The first line of the file naming a matcher with this text, when the source is a file. */
function lineOf(source: string, matcher: string): number | undefined {
  if (!source.startsWith("/")) return undefined;
  try {
    const lines = readFileSync(source, "utf8").split("\n");
    const at = lines.findIndex((line) => line.includes("matcher") && line.includes(matcher));
    return at < 0 ? undefined : at + 1;
  } catch {
    return undefined;
  }
}

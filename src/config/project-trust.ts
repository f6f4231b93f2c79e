// The one table of which project settings apply without trust, and the filter that enforces
// it: load.ts passes the project file's layer through `gateProjectLayer` before the merge, so
// every command (exec, config show, sessions, hooks, permissions, tools) sees the same result.
// The same table says which settings the trust fingerprint covers (`trustedSettings`).
import type { KeySegment } from "./key-path.ts";
import { formatKeyPath } from "./key-path.ts";
import type { Table } from "./merge.ts";
import { isTable } from "./merge.ts";
import { promptFilePlace } from "./prompt-paths.ts";
import type { Config } from "./schema.ts";
import { EFFORT_LEVELS } from "./schema.ts";

/**
 * How a project setting is treated when the project is not trusted:
 * - `safe`: applies; it cannot send data anywhere, run anything or loosen a limit.
 * - `own-provider`: applies when it names one of the user's own providers (built-in or user file).
 * - `at-most`: applies when it is no larger than the user's own value (it only tightens).
 * - `true-only` / `false-only`: applies only with that value (the tighter one).
 * - `trust`: ignored; it applies only in a trusted project.
 */
export type TrustRule = "safe" | "own-provider" | "at-most" | "true-only" | "false-only" | "trust";

/** The table, written in docs/config.md too. `*` is any one key; anything unlisted is `trust`. */
export const PROJECT_KEY_RULES: readonly { key: string; rule: TrustRule }[] = [
  { key: "model", rule: "own-provider" },
  { key: "max_steps", rule: "at-most" },
  { key: "max_budget_usd", rule: "at-most" },
  { key: "thinking.budget_tokens", rule: "at-most" },
  { key: "thinking.effort", rule: "at-most" },
  { key: "retry.*", rule: "safe" },
  { key: "output.max_bytes", rule: "at-most" },
  { key: "output.spill_to_temp", rule: "false-only" },
  { key: "output.redact_secrets", rule: "true-only" },
  { key: "output.gcf", rule: "safe" },
  { key: "output.terminal_cols", rule: "safe" },
  { key: "output.terminal_rows", rule: "safe" },
  { key: "output.tools.*.max_bytes", rule: "at-most" },
  { key: "output.tools.*.spill_to_temp", rule: "false-only" },
  { key: "output.tools.*.redact_secrets", rule: "true-only" },
  { key: "output.tools.*.gcf", rule: "safe" },
  { key: "display.status_line", rule: "trust" },
  { key: "display.*", rule: "safe" },
  { key: "compaction.enabled", rule: "safe" },
  { key: "subagents.max_concurrent", rule: "at-most" },
  { key: "compaction.threshold", rule: "safe" },
  { key: "compaction.model", rule: "own-provider" },
  { key: "web.search.max_per_session", rule: "at-most" },
  { key: "web.search.provider_tool", rule: "false-only" },
  { key: "session_dir", rule: "trust" },
  { key: "search.scope", rule: "trust" },
  { key: "system_prompt_file", rule: "trust" },
  { key: "providers.*.*", rule: "trust" },
  { key: "models.*", rule: "trust" },
  { key: "permissions.*", rule: "trust" },
  { key: "hooks.*", rule: "trust" },
  { key: "tools.external", rule: "trust" },
  { key: "mcp_servers.*", rule: "trust" },
];

const PATTERNS = PROJECT_KEY_RULES.map(({ key, rule }) => ({ segments: key.split("."), rule }));

/** A project setting that does not apply, and why. */
export interface IgnoredSetting {
  key: string;
  reason: "untrusted" | "outside-project";
  /** For `outside-project`: the real path the setting named. */
  path?: string;
}

export interface GateInput {
  /** The project layer, path keys already absolute. */
  data: Table;
  trusted: boolean;
  /**
   * The config of the layers below the project (defaults and the user file), undefined if they
   * do not validate alone; called only when a rule needs the user's own value.
   */
  baseline: () => Config | undefined;
  projectRoot: string;
  /** The user file's `allowed_prompt_dirs`, absolute. */
  allowedPromptDirs: readonly string[];
}

/**
 * The part of the project layer that applies, and the settings left out (named in the notice).
 * Trusted or not, a `system_prompt_file` outside the project and the allowed directories is left
 * out and named as such (trusting would not help); a kept one is replaced by its real path, so
 * a link swapped later cannot redirect it.
 */
export function gateProjectLayer(input: GateInput): { kept: Table; ignored: IgnoredSetting[] } {
  const decide = (rule: TrustRule, path: readonly KeySegment[], value: unknown) =>
    input.trusted || appliesUntrusted(rule, path, value, input.baseline);
  const { kept, dropped } = partition(input.data, decide);
  // One look at the prompt file's real path: it both decides and replaces the kept value.
  const prompt = input.data.system_prompt_file;
  const place =
    typeof prompt === "string"
      ? promptFilePlace(prompt, input.projectRoot, input.allowedPromptDirs)
      : undefined;
  const outside: IgnoredSetting | undefined =
    place && !place.ok
      ? { key: "system_prompt_file", reason: "outside-project", path: place.realPath }
      : undefined;
  if (outside) delete kept.system_prompt_file;
  else if (place && typeof kept.system_prompt_file === "string") {
    kept.system_prompt_file = place.realPath;
  }
  const ignored = dropped.map((key): IgnoredSetting => {
    if (key === "system_prompt_file" && outside) return outside;
    return { key, reason: "untrusted" };
  });
  if (outside && !dropped.includes("system_prompt_file")) ignored.push(outside);
  return { kept, ignored };
}

/**
 * The settings a trust record covers: every setting that could need trust (all but `safe` and
 * `own-provider` ones), as written in the project file. Its fingerprint is what `codewhale trust`
 * records, so editing any of them makes the project untrusted again.
 */
export function trustedSettings(data: Table): Table {
  return partition(data, (rule) => rule !== "safe" && rule !== "own-provider").kept;
}

function appliesUntrusted(
  rule: TrustRule,
  path: readonly KeySegment[],
  value: unknown,
  baselineOf: () => Config | undefined,
): boolean {
  switch (rule) {
    case "safe":
      return true;
    case "own-provider": {
      const provider = typeof value === "string" ? value.split("/")[0] : undefined;
      const baseline = provider === undefined ? undefined : baselineOf();
      return provider !== undefined && baseline !== undefined && provider in baseline.providers;
    }
    case "at-most": {
      const baseline = baselineOf();
      const limit = baseline === undefined ? undefined : baselineLimit(baseline, path);
      const amount = amountOf(path, value);
      if (amount === undefined) return false;
      return limit === "none" || (typeof limit === "number" && amount <= limit);
    }
    case "true-only":
      return value === true;
    case "false-only":
      return value === false;
    case "trust":
      return false;
  }
}

/** An `at-most` value as a number: an effort level by its rank, `off` lowest. */
function amountOf(path: readonly KeySegment[], value: unknown): number | undefined {
  if (path[0] === "thinking" && path[1] === "effort") {
    const rank = EFFORT_LEVELS.indexOf(value as (typeof EFFORT_LEVELS)[number]);
    return rank < 0 ? undefined : rank;
  }
  return typeof value === "number" ? value : undefined;
}

/**
 * The user's own value of an `at-most` key; "none" when the user sets no limit at all. Unset,
 * the thinking keys allow only `effort = "off"`: any budget costs more than none.
 */
function baselineLimit(baseline: Config, path: readonly KeySegment[]): number | "none" | undefined {
  const [first, second, tool, leaf] = path;
  if (first === "thinking" && second === "effort")
    return baseline.thinking.effort === undefined
      ? 0
      : EFFORT_LEVELS.indexOf(baseline.thinking.effort);
  if (first === "thinking" && second === "budget_tokens")
    return baseline.thinking.budget_tokens ?? 0;
  if (first === "max_steps") return baseline.max_steps;
  if (first === "max_budget_usd") return baseline.max_budget_usd ?? "none";
  if (first === "subagents" && second === "max_concurrent")
    return baseline.subagents.max_concurrent;
  if (first === "output" && second === "max_bytes") return baseline.output.max_bytes;
  if (
    first === "output" &&
    second === "tools" &&
    typeof tool === "string" &&
    leaf === "max_bytes"
  ) {
    return baseline.output.tools[tool]?.max_bytes ?? baseline.output.max_bytes;
  }
  return undefined;
}

/**
 * Splits `data` by the rule table: `decide` says whether a value under a rule is kept. Returns
 * the kept part (empty tables left out) and the keys of the non-empty values left out.
 */
function partition(
  data: Table,
  decide: (rule: TrustRule, path: readonly KeySegment[], value: unknown) => boolean,
): { kept: Table; dropped: string[] } {
  const dropped: string[] = [];
  const visit = (table: Table, path: KeySegment[]): Table => {
    const out: Table = {};
    for (const [key, value] of Object.entries(table)) {
      if (value === undefined) continue;
      const here = [...path, key];
      const rule = ruleFor(here);
      if (rule === undefined && isTable(value)) {
        const child = visit(value, here);
        if (Object.keys(child).length > 0) out[key] = child;
      } else if (decide(rule ?? "trust", here, value)) out[key] = value;
      else if (!isEmptyValue(value)) dropped.push(formatKeyPath(here));
    }
    return out;
  };
  return { kept: visit(data, []), dropped };
}

/** The rule whose pattern is exactly `path`, if any. */
function ruleFor(path: readonly KeySegment[]): TrustRule | undefined {
  for (const { segments, rule } of PATTERNS) {
    if (segments.length !== path.length) continue;
    if (segments.every((segment, i) => segment === "*" || segment === path[i])) return rule;
  }
  return undefined;
}

function isEmptyValue(value: unknown): boolean {
  if (Array.isArray(value)) return value.length === 0;
  return isTable(value) && Object.keys(value).length === 0;
}

// A config.toml written by the other terminal agent named Codewhale (the Rust one, DeepSeek by
// default, which also keeps `~/.codewhale/config.toml`): recognised by keys only that tool has,
// read for what the two share (its provider and model as our `provider/model`, a provider's
// base URL), never for its literal `api_key`, approvals, sandbox, hooks or trust; every other key
// of its own is ignored and listed, while our own keys in the file still get our full checking.
// Called by files.ts on each file it reads; pure.
import type { KeySegment } from "./key-path.ts";
import { formatKeyPath } from "./key-path.ts";
import { isTable, type Table } from "./merge.ts";

/** Top-level keys (and `hooks.hooks`) the other Codewhale writes and codewhale has not. */
const SIGNATURE_KEYS = new Set([
  "provider",
  "api_key",
  "base_url",
  "default_text_model",
  "approval_policy",
  "sandbox_mode",
  "reasoning_effort",
  "model_reasoning_effort",
  "allow_shell",
  "tui",
  "snapshots",
  "cloud_facts",
  "skills_dir",
  "mcp_config_path",
  "notes_path",
  "memory_path",
  "max_subagents",
]);

/** Its provider names that codewhale knows under another name. */
const PROVIDER_ALIASES: Readonly<Record<string, string>> = { "deepseek-cn": "deepseek" };

/** A model id both tools accept: what our `provider/model` may carry without a check of its own. */
const MODEL_NAME = /^[A-Za-z0-9][A-Za-z0-9._:/@-]*$/;

/** What was made of a file the other Codewhale wrote. */
export interface ForeignConfig {
  /** Dotted keys taken from it, each with what it became (`model = "deepseek/deepseek-chat"`). */
  read: string[];
  /** Dotted keys of its own that codewhale ignored. */
  ignored: string[];
}

/** Whether `data` (a parsed config file) was written by the other Codewhale. */
export function isForeignConfig(data: Table): boolean {
  if (Object.keys(data).some((key) => SIGNATURE_KEYS.has(key))) return true;
  return isTable(data.hooks) && data.hooks.hooks !== undefined;
}

/**
 * The part of a foreign file codewhale reads: its own keys as written (`ownKeys` keeps a key
 * path our schema knows), plus what the shared keys map to. `unknown` lists the key paths our
 * schema does not know (from a first check of the file); `providers` the provider names
 * codewhale has without a config entry (its built-ins).
 */
export function readForeignConfig(
  data: Table,
  unknown: readonly (readonly KeySegment[])[],
  builtinProviders: ReadonlySet<string>,
): { data: Table; foreign: ForeignConfig } {
  const ignored = new Set(unknown.map((path) => formatKeyPath(path)));
  const kept = withoutPaths(data, unknown);
  const read: string[] = [];
  const providers = isTable(kept.providers) ? { ...kept.providers } : {};
  const original = isTable(data.providers) ? data.providers : {};
  for (const [name, entry] of Object.entries(providers)) {
    const ours = isTable(entry) && (entry.kind !== undefined || builtinProviders.has(name));
    if (ours && Object.keys(entry).length > 0) continue;
    delete providers[name];
    if (ours) continue;
    const whole = formatKeyPath(["providers", name]);
    for (const key of ignored) if (key.startsWith(`${whole}.`)) ignored.delete(key);
    ignored.add(whole);
  }

  const named = typeof data.provider === "string" ? data.provider : "deepseek";
  const provider = PROVIDER_ALIASES[named] ?? named;
  const known = builtinProviders.has(provider) || isTable(providers[provider]);
  const baseUrl = data.base_url;
  if (provider === "deepseek" && typeof baseUrl === "string" && known) {
    const entry = isTable(providers.deepseek) ? providers.deepseek : {};
    if (entry.base_url === undefined) {
      providers.deepseek = { ...entry, base_url: baseUrl };
      read.push(`base_url → providers.deepseek.base_url`);
      ignored.delete("base_url");
    }
  }
  const entry = original[named];
  const own = isTable(entry) && typeof entry.model === "string";
  const model = own ? entry.model : data.default_text_model;
  if (kept.model === undefined && known && typeof model === "string" && MODEL_NAME.test(model)) {
    kept.model = `${provider}/${model}`;
    const from = [
      ...(typeof data.provider === "string" ? ["provider"] : []),
      own ? `providers.${named}.model` : "default_text_model",
    ];
    read.push(`${from.join(" and ")} → model = "${provider}/${model}"`);
    for (const key of ["provider", from[from.length - 1] as string]) ignored.delete(key);
  }
  readEffort(data, kept, read, ignored);
  if (Object.keys(providers).length > 0) kept.providers = providers;
  else delete kept.providers;
  return { data: kept, foreign: { read, ignored: [...ignored].sort() } };
}

/** Its (or Codex's) effort words as ours: `none` is off, `max` and `xhigh` our most. */
const EFFORT_WORDS: Readonly<Record<string, string>> = {
  none: "off",
  minimal: "minimal",
  low: "low",
  medium: "medium",
  high: "high",
  xhigh: "high",
  max: "high",
};

/** `reasoning_effort` (or Codex's `model_reasoning_effort`) as `thinking.effort`, unless set. */
function readEffort(data: Table, kept: Table, read: string[], ignored: Set<string>): void {
  const thinking = isTable(kept.thinking) ? kept.thinking : {};
  if (thinking.effort !== undefined) return;
  for (const key of ["reasoning_effort", "model_reasoning_effort"]) {
    const value = data[key];
    const effort = typeof value === "string" ? EFFORT_WORDS[value.toLowerCase()] : undefined;
    if (effort === undefined) continue;
    kept.thinking = { ...thinking, effort };
    read.push(`${key} → thinking.effort = "${effort}"`);
    ignored.delete(key);
    return;
  }
}

/** `data` without the given key paths (tables and arrays copied on the way down, never modified). */
function withoutPaths(data: Table, paths: readonly (readonly KeySegment[])[]): Table {
  const out: Table = { ...data };
  for (const path of paths) {
    let parent: Table | unknown[] | undefined = out;
    for (const segment of path.slice(0, -1)) {
      const next: unknown = (parent as Record<string | number, unknown>)[segment];
      const copy = Array.isArray(next) ? [...next] : isTable(next) ? { ...next } : undefined;
      if (copy === undefined) {
        parent = undefined;
        break;
      }
      (parent as Record<string | number, unknown>)[segment] = copy;
      parent = copy;
    }
    const last = path[path.length - 1];
    if (typeof last === "string" && isTable(parent)) delete parent[last];
  }
  return out;
}

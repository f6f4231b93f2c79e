// The model table: context window and list prices per million tokens for current Anthropic
// and OpenAI models, plus the config overrides (`[models."provider/model"]`) that refine it.
// The loop calls costOf for `step/end` and contextWindowOf for compaction decisions; every
// view of a cost (the loop's budget line, exec, sessions, exports, the terminal) reads it
// through formatCost and formatCostDetail.
import type { Usage } from "../session/events.ts";

/** USD per million tokens. */
export interface Price {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

export interface ModelInfo {
  contextWindow: number | null;
  price: Price | null;
}

/**
 * One `[models."provider/model"]` config table (the fields of config's modelInfoSchema, so the
 * parsed config passes straight through); prices in USD per million tokens.
 */
export interface ModelOverride {
  context_window?: number;
  input_price?: number;
  output_price?: number;
  cache_read_price?: number;
  cache_write_price?: number;
  compaction_threshold?: number;
  /** Whether the model takes images (tool results' image blocks); see takesImages. */
  images?: boolean;
}

export interface ModelLookup {
  /** The config name of the provider, for `provider/model` override keys. */
  provider?: string;
  /** Keyed `provider/model` or a bare model id. */
  overrides?: Record<string, ModelOverride>;
}

/** When the prices below were last checked against the published list prices. */
export const MODEL_TABLE_DATE = "2026-11-29";

const K = 1000;
// Anthropic cache writes (5-minute TTL) cost 1.25x input, cache reads 0.1x input.
const claude = (input: number, output: number, contextWindow = 200 * K): ModelInfo => ({
  contextWindow,
  price: { input, output, cacheRead: input / 10, cacheWrite: input * 1.25 },
});
// OpenAI bills no cache writes (its usage never reports any); cached input has its own price.
const openai = (contextWindow: number, input: number, output: number, cacheRead = input) => ({
  contextWindow,
  price: { input, output, cacheRead, cacheWrite: input },
});

const TABLE: Record<string, ModelInfo> = {
  "claude-opus-4-6": claude(5, 25),
  "claude-sonnet-4-6": claude(3, 15),
  "claude-opus-4-5": claude(5, 25),
  "claude-opus-4-1": claude(15, 75),
  "claude-opus-4-0": claude(15, 75),
  "claude-opus-4": claude(15, 75),
  "claude-sonnet-4-5": claude(3, 15),
  "claude-sonnet-4-0": claude(3, 15),
  "claude-sonnet-4": claude(3, 15),
  "claude-haiku-4-5": claude(1, 5),
  "gpt-5.1": openai(400 * K, 1.25, 10, 0.125),
  "gpt-5": openai(400 * K, 1.25, 10, 0.125),
  "gpt-5-codex": openai(400 * K, 1.25, 10, 0.125),
  "gpt-5-mini": openai(400 * K, 0.25, 2, 0.025),
  "gpt-5-nano": openai(400 * K, 0.05, 0.4, 0.005),
  "gpt-5-pro": openai(400 * K, 15, 120),
  "gpt-4.1": openai(1_047_576, 2, 8, 0.5),
  "gpt-4.1-mini": openai(1_047_576, 0.4, 1.6, 0.1),
  "gpt-4.1-nano": openai(1_047_576, 0.1, 0.4, 0.025),
  "gpt-4o": openai(128 * K, 2.5, 10, 1.25),
  "gpt-4o-mini": openai(128 * K, 0.15, 0.6, 0.075),
  o3: openai(200 * K, 2, 8, 0.5),
  "o3-pro": openai(200 * K, 20, 80),
  "o3-mini": openai(200 * K, 1.1, 4.4, 0.55),
  "o4-mini": openai(200 * K, 1.1, 4.4, 0.275),
  o1: openai(200 * K, 15, 60, 7.5),
};

/** The table entry for a model id, tolerating dated snapshots and router prefixes. */
function tableEntry(model: string): ModelInfo | null {
  for (const candidate of candidates(model)) {
    const entry = TABLE[candidate];
    if (entry) return entry;
  }
  return null;
}

/** `claude-sonnet-4-5-20250929`, `gpt-4.1-2025-04-14`, `anthropic/claude-sonnet-4.5`, … */
function candidates(model: string): string[] {
  const bare = model.slice(model.lastIndexOf("/") + 1).toLowerCase();
  const undated = bare.replace(/-\d{8}$/, "").replace(/-\d{4}-\d{2}-\d{2}$/, "");
  const hyphenated = undated.startsWith("claude-") ? undated.replaceAll(".", "-") : undated;
  return [model, bare, undated, hyphenated];
}

/** The effective info: the override (by `provider/model`, then model) over the table entry. */
export function modelInfo(model: string, lookup: ModelLookup = {}): ModelInfo | null {
  const found = tableEntry(model);
  const keyed = lookup.provider ? lookup.overrides?.[`${lookup.provider}/${model}`] : undefined;
  const override = keyed ?? lookup.overrides?.[model];
  if (!override) return found;
  return applyOverride(found, override);
}

function applyOverride(base: ModelInfo | null, o: ModelOverride): ModelInfo {
  const contextWindow = o.context_window ?? base?.contextWindow ?? null;
  const input = o.input_price ?? base?.price?.input;
  const output = o.output_price ?? base?.price?.output;
  if (input === undefined || output === undefined) return { contextWindow, price: null };
  const price: Price = {
    input,
    output,
    // Without a cache price of its own, cached input is charged like input (the safe side).
    cacheRead: o.cache_read_price ?? base?.price?.cacheRead ?? input,
    cacheWrite: o.cache_write_price ?? base?.price?.cacheWrite ?? input,
  };
  return { contextWindow, price };
}

/**
 * USD cost of one request, or null when the model's prices are unknown. `usage.input` excludes
 * cached tokens and `usage.reasoning` is part of `usage.output` (see the adapters), so the four
 * counts are disjoint and are each charged once.
 */
export function costOf(model: string, usage: Usage, lookup: ModelLookup = {}): number | null {
  const price = modelInfo(model, lookup)?.price;
  if (!price) return null;
  const micro =
    usage.input * price.input +
    usage.output * price.output +
    usage.cache_read * price.cacheRead +
    usage.cache_write * price.cacheWrite;
  return micro / 1_000_000;
}

/** "$0.03", "<$0.01" for a positive cost under half a cent, "$0.00", or "price unknown". */
export function formatCost(usd: number | null | undefined): string {
  if (usd === null || usd === undefined || !Number.isFinite(usd)) return "price unknown";
  if (usd > 0 && usd < 0.005) return "<$0.01";
  return `$${usd.toFixed(2)}`;
}

/** A cost with four decimals, for per-step detail ("$0.0266"); "price unknown" as above. */
export function formatCostDetail(usd: number | null | undefined): string {
  if (usd === null || usd === undefined || !Number.isFinite(usd)) return "price unknown";
  return `$${usd.toFixed(4)}`;
}

/** A `[models."provider/model"] compaction_threshold`, or null when none is set. */
export function compactionThresholdOf(model: string, lookup: ModelLookup = {}): number | null {
  const keyed = lookup.provider ? lookup.overrides?.[`${lookup.provider}/${model}`] : undefined;
  return (keyed ?? lookup.overrides?.[model])?.compaction_threshold ?? null;
}

/** OpenAI models of the table that take no image input. */
const TEXT_ONLY = /^(o1-mini|o1-preview|o3-mini)\b/;

/**
 * Whether a model takes images in tool results: a `[models."provider/model"] images` setting
 * first; else every Claude model (Anthropic's API), an OpenAI model of the table but the
 * text-only reasoning ones; any other model (a local or unknown one over Chat Completions or
 * Responses) is taken to read text only, so it gets each image's description.
 */
export function takesImages(model: string, api: string, lookup: ModelLookup = {}): boolean {
  const keyed = lookup.provider ? lookup.overrides?.[`${lookup.provider}/${model}`] : undefined;
  const set = (keyed ?? lookup.overrides?.[model])?.images;
  if (set !== undefined) return set;
  if (api === "anthropic") return true;
  const bare = candidates(model)[2] ?? model;
  return TABLE[bare] !== undefined && !TEXT_ONLY.test(bare);
}

/** The context window in tokens, or null when unknown. */
export function contextWindowOf(model: string, lookup: ModelLookup = {}): number | null {
  return modelInfo(model, lookup)?.contextWindow ?? null;
}

// The session's reasoning effort: what `--effort`, `/effort`, `[thinking] effort` and an editor's
// thinking option set, recorded as `session/effort` (the newest holds on resume), and what it
// becomes in a request (`ProviderRequest.thinking`: the level for OpenAI's reasoning effort, a
// token budget for Anthropic's extended thinking). compose-session.ts opens it, step.ts reads
// it for every request, agent.ts changes it (`set_effort`).
import type { ProviderConfig, ProviderRequest, ReasoningEffort } from "../providers/index.ts";
import type { Effort, SessionEvent } from "../session/events.ts";

/**
 * Anthropic's `budget_tokens` per level: 1,024 is the documented minimum; the others are the
 * budgets editors offer as low, medium and high (docs/config.md).
 */
export const EFFORT_BUDGETS: Readonly<Record<ReasoningEffort, number>> = {
  minimal: 1024,
  low: 4096,
  medium: 16_384,
  high: 32_768,
};

/** Services whose API takes no reasoning effort (reasoning is the model's own, or none). */
const IGNORING_HOSTS = ["api.deepseek.com", "api.mistral.ai"];
const IGNORING_NAMES = new Set(["deepseek", "mistral"]);
/** Chat Completions services that take OpenAI's `minimal` (others take low, medium, high). */
const MINIMAL_NAMES = new Set(["openai", "azure"]);

/** The session's effort now; undefined: none set, `[thinking] budget_tokens` decides. */
export class SessionEffort {
  constructor(public level: Effort | undefined) {}

  /** What a request to `provider` carries; undefined: no thinking. */
  requestThinking(
    provider: ProviderConfig,
    budgetTokens: number | undefined,
  ): ProviderRequest["thinking"] {
    if (ignoresEffort(provider)) return undefined;
    const level = this.level;
    if (level === "off") return undefined;
    if (level === undefined) return budgetTokens === undefined ? undefined : { budgetTokens };
    const wire = level === "minimal" && !takesMinimal(provider) ? "low" : level;
    return { budgetTokens: EFFORT_BUDGETS[level], effort: wire };
  }
}

/** Whether `provider`'s API has no reasoning effort (DeepSeek, Mistral): none is sent. */
function ignoresEffort(provider: ProviderConfig): boolean {
  if (provider.kind !== "openai-chat") return false;
  if (IGNORING_NAMES.has(provider.name)) return true;
  const host = hostOf(provider.baseUrl);
  return host !== null && IGNORING_HOSTS.includes(host);
}

/** The one notice for an effort that `provider` ignores, or null when it is sent. */
export function ignoredEffortNotice(
  provider: ProviderConfig,
  level: Effort | undefined,
  budgetTokens: number | undefined,
): string | null {
  if (!ignoresEffort(provider) || level === "off") return null;
  if (level === undefined && budgetTokens === undefined) return null;
  const what = level === undefined ? `thinking.budget_tokens = ${budgetTokens}` : `effort ${level}`;
  return `${provider.name} takes no reasoning effort: ${what} is not sent`;
}

/** The effort the newest `session/effort` of a log set; undefined when none did. */
export function effortInEffect(events: readonly SessionEvent[]): Effort | undefined {
  let level: Effort | undefined;
  for (const event of events) if (event.type === "session/effort") level = event.effort;
  return level;
}

function takesMinimal(provider: ProviderConfig): boolean {
  return provider.kind === "openai-responses" || MINIMAL_NAMES.has(provider.name);
}

function hostOf(url: string | undefined): string | null {
  if (url === undefined) return null;
  try {
    return new URL(url).host;
  } catch {
    return null;
  }
}

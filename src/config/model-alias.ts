// Claude Code's model names as codewhale's `provider/model` ids: its aliases (`sonnet`, `opus`,
// `haiku`) and a bare Claude id (`claude-sonnet-4-5`) are Anthropic's models. Used by `--model`
// (flags' callers in cli/), by every model an Agent opens with (agent/compose-session.ts: the
// terminal's /model, ACP's model option) and by a custom command's or agent file's `model:`
// (agent/model-field.ts), so a file written for Claude Code selects what the same word selects
// on the command line.
import { DEFAULT_MODEL } from "./schema.ts";

/** Claude Code's aliases: the newest model of each family in codewhale's price table. */
const CLAUDE_ALIASES: Readonly<Record<string, string>> = {
  sonnet: DEFAULT_MODEL,
  opus: "anthropic/claude-opus-4-6",
  haiku: "anthropic/claude-haiku-4-5",
};

/**
 * `name` as a `provider/model` id when it is one of Claude Code's names; anything else (already
 * `provider/model`, or a model no alias names) unchanged.
 */
export function expandModelAlias(name: string): string {
  const trimmed = name.trim();
  const alias = CLAUDE_ALIASES[trimmed.toLowerCase()];
  if (alias) return alias;
  if (/^claude-[a-z0-9.-]+$/i.test(trimmed)) return `anthropic/${trimmed}`;
  return name;
}

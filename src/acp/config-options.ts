// The session config options an ACP client can set (session/set_config_option): the model and
// the thinking level (the session's effort), offered in the session/new, load and resume answers
// and every `config_option_update`, a choice checked here (`settingOf`) before acp-session.ts
// reopens with it. Model choices: the session's, config `model`, the `[models]` keys, a few of each
// keyed provider; any `provider/model` is taken, and Claude Code's `sonnet` as `--model` takes it.
import type { SessionConfigOption } from "@agentclientprotocol/sdk";
import { RequestError } from "@agentclientprotocol/sdk";
import { EFFORT_BUDGETS } from "../agent/index.ts";
import { type Config, type Env, expandModelAlias } from "../config/index.ts";
import { terminalSafeLine } from "../runner/index.ts";
import { EFFORT_LEVELS, type Effort } from "../session/events.ts";

/** The thinking levels: the session's reasoning effort (`set_effort`, `session/effort`). */
const THINKING_LEVELS = EFFORT_LEVELS.map((value) => ({
  value,
  name: value.charAt(0).toUpperCase() + value.slice(1),
  budget: value === "off" ? undefined : EFFORT_BUDGETS[value],
}));

/** A few current models per provider kind, offered when the provider's key is set. */
const SUGGESTED: Record<string, readonly string[]> = {
  anthropic: ["claude-opus-4-5", "claude-sonnet-4-5", "claude-haiku-4-5"],
  "openai-responses": ["gpt-5.1", "gpt-5", "gpt-5-mini"],
  "openai-chat": [],
};

/** `provider/model`, without spaces or control characters (an editor shows these as they are). */
const MODEL_ID = /^[^/\s\p{Cc}]+\/[^\s\p{Cc}]+$/u;

/**
 * What the options show: the session's model (`provider/model`), its effort, and the config's
 * thinking budget (what a session without an effort thinks with).
 */
export interface SessionSettings {
  model: string;
  effort: Effort | undefined;
  budget: number | undefined;
}

export function configOptions(
  settings: SessionSettings,
  config: Config,
  env: Env,
): SessionConfigOption[] {
  return [
    {
      id: "model",
      name: "Model",
      description: "The model the session continues with (recorded in its log)",
      category: "model",
      type: "select",
      // A model from a stored log is shown, never interpreted by the editor.
      currentValue: terminalSafeLine(settings.model),
      options: modelChoices(settings.model, config, env).map((value) => ({ value, name: value })),
    },
    {
      id: "thinking",
      name: "Thinking",
      description: "The reasoning effort of each request (recorded in its log)",
      category: "thought_level",
      type: "select",
      currentValue: settings.effort ?? levelOf(settings.budget),
      options: THINKING_LEVELS.map(({ value, name, budget }) => ({
        value,
        name,
        ...(budget === undefined ? {} : { description: `${budget} tokens` }),
      })),
    },
  ];
}

/** The level a budget reads as: the smallest level that holds it. */
function levelOf(budget: number | undefined): Effort {
  if (budget === undefined) return "off";
  const level = THINKING_LEVELS.find(
    (entry) => entry.budget !== undefined && budget <= entry.budget,
  );
  return level?.value ?? "high";
}

/** The setting a `session/set_config_option` asks for, or an "invalid params" error. */
export function settingOf(
  configId: string,
  value: unknown,
): { model: string } | { effort: Effort } {
  if (configId === "model") {
    const model = typeof value === "string" ? expandModelAlias(value) : "";
    if (!MODEL_ID.test(model)) {
      throw RequestError.invalidParams({ configId }, "the model must be provider/model");
    }
    return { model };
  }
  if (configId === "thinking") {
    const level = THINKING_LEVELS.find((entry) => entry.value === value);
    if (!level) {
      const words = `${EFFORT_LEVELS.slice(0, -1).join(", ")} or ${EFFORT_LEVELS.at(-1)}`;
      throw RequestError.invalidParams({ configId }, `thinking is ${words}`);
    }
    return { effort: level.value };
  }
  throw RequestError.invalidParams({ configId }, `unknown config option "${configId}"`);
}

function modelChoices(current: string, config: Config, env: Env): string[] {
  const choices = [current, config.model];
  for (const key of Object.keys(config.models)) if (key.includes("/")) choices.push(key);
  for (const [name, provider] of Object.entries(config.providers)) {
    const keyed = provider.api_key_env === undefined || Boolean(env[provider.api_key_env]?.trim());
    if (!keyed) continue;
    for (const model of SUGGESTED[provider.kind] ?? []) choices.push(`${name}/${model}`);
  }
  return [...new Set(choices)].filter((choice) => MODEL_ID.test(choice));
}

// Whether the session's provider has its API key, checked before a session opens so that an
// editor gets ACP's "authentication required" naming the variable to set, rather than a failed
// prompt. Only the name of the variable is ever sent, never a value. Used by acp-sessions.ts.
import { splitModelId } from "../agent/provider-resolve.ts";
import type { Config, Env } from "../config/index.ts";

/** The variable that must hold the key of `modelId`'s provider and is empty, if any. */
export function missingKeyVariable(config: Config, modelId: string, env: Env): string | undefined {
  const entry = config.providers[splitModelId(modelId).provider];
  const variable = entry?.api_key_env;
  if (variable === undefined) return undefined;
  return env[variable]?.trim() ? undefined : variable;
}

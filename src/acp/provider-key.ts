// Whether the session's provider has its API key, checked before a session opens (and by
// `authenticate`) so that an editor gets ACP's "authentication required" naming the variable
// to set, rather than a failed prompt; and the one auth method that says so. Only the name of
// a variable is ever sent, never a value. Used by acp-agent.ts and acp-sessions.ts.

import type { AuthMethod } from "@agentclientprotocol/sdk";
import { splitModelId } from "../agent/index.ts";
import type { Config, Env } from "../config/index.ts";

/** The id of the one auth method: the provider key in codewhale's environment. */
export const PROVIDER_KEY_METHOD = "provider-key";

export function authMethods(): AuthMethod[] {
  return [
    {
      id: PROVIDER_KEY_METHOD,
      name: "Provider API key",
      description:
        "Set the API key variable of your model's provider (ANTHROPIC_API_KEY, OPENAI_API_KEY or the provider's api_key_env) in the environment the editor starts codewhale with, then restart the agent; authenticate then checks it.",
    },
  ];
}

/** The variable that must hold the key of `modelId`'s provider and is empty, if any. */
export function missingKeyVariable(config: Config, modelId: string, env: Env): string | undefined {
  const entry = config.providers[splitModelId(modelId).provider];
  const variable = entry?.api_key_env;
  if (variable === undefined) return undefined;
  return env[variable]?.trim() ? undefined : variable;
}

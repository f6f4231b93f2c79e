// The environments of the processes the session starts, all from runner/child-env.ts: a hook's
// (the session's less the provider keys, with the project directory under both codewhale's and
// Claude Code's names; each hook then loses every credential but its `env_allow` when it
// starts, run-event.ts), the one MCP servers start from (less every credential), and the one
// tools and doctor's probes get (less the provider keys).
import { BUILTIN_BASE_URL_VARS, BUILTIN_CREDENTIAL_VARS, type Env } from "../config/index.ts";
import { childEnvironment } from "../runner/index.ts";

export interface HookEnvOptions {
  /** Each configured provider's `api_key_env`, removed whatever its name. */
  providerKeyVars: readonly string[];
  projectDir: string;
}

/**
 * What every hook of the session starts from: no provider key, the project dir set. The other
 * credentials are removed per hook (hookProcessEnvironment), so `env_allow` can keep some.
 */
export function hookEnvironment(base: Env, options: HookEnvOptions): NodeJS.ProcessEnv {
  const env = childEnvironment(base, {
    providerKeyVars: options.providerKeyVars,
    credentials: false,
  });
  env.CODEWHALE_PROJECT_DIR = options.projectDir;
  env.CLAUDE_PROJECT_DIR = options.projectDir;
  return env;
}

/** The environment one hook runs with: `session` less every credential but its `env_allow`. */
export function hookProcessEnvironment(
  session: NodeJS.ProcessEnv,
  allow: readonly string[] = [],
): NodeJS.ProcessEnv {
  return childEnvironment(session, { providerKeyVars: [], credentials: true, allow });
}

/**
 * `base` without any variable that holds a credential and without `providerKeyVars`: what MCP
 * servers start from (a server gets a credential only through its own `env` or `env_allow`).
 */
export function withoutCredentials(
  base: Env,
  providerKeyVars: readonly string[],
): NodeJS.ProcessEnv {
  return childEnvironment(base, { providerKeyVars, credentials: true });
}

/** `env` without the configured providers' key variables: what tools and cgc get. */
export function withoutProviderKeys(
  env: Env,
  providers: Record<string, { api_key_env?: string }>,
): NodeJS.ProcessEnv {
  return childEnvironment(env, { providerKeyVars: providerKeyVars(providers), credentials: false });
}

/**
 * The variables codewhale reads provider credentials from: every configured provider's
 * `api_key_env`, the built-in providers' base URL variables (a URL may hold a password), and
 * the AWS and Google credentials of the `bedrock` and `vertex` presets.
 */
export function providerKeyVars(providers: Record<string, { api_key_env?: string }>): string[] {
  const keys = Object.values(providers).flatMap((provider) =>
    provider.api_key_env ? [provider.api_key_env] : [],
  );
  return [...keys, ...BUILTIN_BASE_URL_VARS, ...BUILTIN_CREDENTIAL_VARS];
}

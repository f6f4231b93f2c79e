// The environment a hook process gets: the session's, minus every provider credential, plus
// the project directory under both codewhale's and Claude Code's names (called once per hook);
// the one tools and doctor's probes get: the session's minus the provider keys; and the one
// MCP servers start from: the session's minus every credential-looking variable.
import { BUILTIN_BASE_URL_VARS, type Env } from "../config/index.ts";

/** Variables that look like credentials: `*_API_KEY`, `*_TOKEN`, and all `ANTHROPIC_*`/`OPENAI_*`. */
const CREDENTIAL_PATTERNS = [/_API_KEY$/i, /_TOKEN$/i, /^ANTHROPIC_/i, /^OPENAI_/i];

export interface HookEnvOptions {
  /** Each configured provider's `api_key_env`, removed whatever its name. */
  providerKeyVars: readonly string[];
  projectDir: string;
}

export function hookEnvironment(base: Env, options: HookEnvOptions): NodeJS.ProcessEnv {
  const env = withoutCredentials(base, options.providerKeyVars);
  env.CODEWHALE_PROJECT_DIR = options.projectDir;
  env.CLAUDE_PROJECT_DIR = options.projectDir;
  return env;
}

/**
 * `base` without any variable that looks like a credential and without `providerKeyVars`:
 * what hooks and MCP servers start from (a server gets a token only through its own `env`).
 */
export function withoutCredentials(
  base: Env,
  providerKeyVars: readonly string[],
): NodeJS.ProcessEnv {
  const drop = new Set(providerKeyVars);
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(base)) {
    if (value === undefined || drop.has(name)) continue;
    if (CREDENTIAL_PATTERNS.some((pattern) => pattern.test(name))) continue;
    env[name] = value;
  }
  return env;
}

/** `env` without the configured providers' key variables: what tools and cgc get. */
export function withoutProviderKeys(
  env: Env,
  providers: Record<string, { api_key_env?: string }>,
): NodeJS.ProcessEnv {
  const drop = new Set(providerKeyVars(providers));
  return Object.fromEntries(Object.entries(env).filter(([name]) => !drop.has(name)));
}

/**
 * The variables codewhale reads provider credentials from: every configured provider's
 * `api_key_env`, and the built-in providers' base URL variables (a URL may hold a password).
 */
export function providerKeyVars(providers: Record<string, { api_key_env?: string }>): string[] {
  const keys = Object.values(providers).flatMap((provider) =>
    provider.api_key_env ? [provider.api_key_env] : [],
  );
  return [...keys, ...BUILTIN_BASE_URL_VARS];
}

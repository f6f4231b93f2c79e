// The environment every child codewhale starts is given, from one function: hooks, MCP stdio
// servers and external command tools get the session's environment less every credential (a
// variable whose name the redactor's key rule calls a credential, `*_API_KEY`, `*_TOKEN`,
// `ANTHROPIC_*`, `OPENAI_*`, or whose value is a URL or connection string with a password or
// token in it), but the names their entry's `env_allow` lists; `bash` and `cgc` run the user's
// own commands and lose only the provider keys codewhale itself reads. Called by hooks/env.ts,
// tools/external and tools/mcp.
import type { Env } from "../config/index.ts";
import { keyClass } from "./redact-rules.ts";
import { isLocation, isPlaceholder } from "./secret-values.ts";

export interface ChildEnvOptions {
  /** Removed in every case (and not brought back by `allow`): the keys codewhale reads. */
  providerKeyVars: readonly string[];
  /** Remove every credential variable too (hooks, MCP stdio servers, external tools). */
  credentials: boolean;
  /** Credential variables kept all the same: the entry's `env_allow`. */
  allow?: readonly string[];
}

/** Names that always mean a credential, whatever the value. */
const CREDENTIAL_NAMES = [/_API_KEY$/i, /_TOKEN$/i, /^ANTHROPIC_/i, /^OPENAI_/i];
/** A URL with a password in its user-info: `postgres://app:pw@db/x`, `redis://:pw@cache`. */
const URL_PASSWORD = /^[a-z][a-z0-9+.-]*:\/\/[^\s/?#@]*:[^\s/?#@]+@/i;
/** A URL query parameter or a connection string field holding a credential. */
const CREDENTIAL_FIELD =
  /[?&;](?:[\w.-]*[_.-])?(?:token|key|apikey|secret|password|passwd|pwd|sig|signature|auth)=[^&;\s]|^(?:.*;)?\s*(?:password|pwd)\s*=\s*[^;\s]/i;

export function childEnvironment(base: Env, options: ChildEnvOptions): NodeJS.ProcessEnv {
  const drop = new Set(options.providerKeyVars);
  const allow = new Set(options.allow ?? []);
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(base)) {
    if (value === undefined || drop.has(name)) continue;
    if (options.credentials && !allow.has(name) && isCredentialVariable(name, value)) continue;
    env[name] = value;
  }
  return env;
}

/**
 * Whether a variable holds a credential: by its name (the redactor's key rule, as for
 * `API_TOKEN=…` in output, unless the value is a path or a placeholder: `PWD`, `*_FILE`) or by
 * its value (a URL or connection string carrying a password or token: `DATABASE_URL`).
 */
export function isCredentialVariable(name: string, value: string): boolean {
  if (CREDENTIAL_NAMES.some((pattern) => pattern.test(name))) return true;
  if (keyClass(name) !== null && !isLocation(value) && !isPlaceholder(value)) return true;
  return URL_PASSWORD.test(value) || CREDENTIAL_FIELD.test(value);
}

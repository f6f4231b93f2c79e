// `${VAR}` and `${VAR:-default}` in an MCP server's env values, url and header values (as
// Claude Code's `.mcp.json` writes them), filled from the session's environment when the
// server starts. A variable that is not set and has no default is a problem naming it, so a
// missing token is one clear notice instead of a server rejecting "Bearer ${TOKEN}".

const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

export type Expanded = { ok: true; value: string } | { ok: false; missing: string };

export function expandVars(
  text: string,
  env: Readonly<Record<string, string | undefined>>,
): Expanded {
  let missing: string | undefined;
  const value = text.replace(REFERENCE, (_match, name: string, fallback: string | undefined) => {
    const set = env[name];
    if (set !== undefined && set !== "") return set;
    if (fallback !== undefined) return fallback;
    missing ??= name;
    return "";
  });
  return missing === undefined ? { ok: true, value } : { ok: false, missing };
}

/** Every value of `table` expanded; the first missing variable names the key it is in. */
export function expandTable(
  table: Readonly<Record<string, string>>,
  env: Readonly<Record<string, string | undefined>>,
  what: string,
): { ok: true; value: Record<string, string> } | { ok: false; problem: string } {
  const out: Record<string, string> = {};
  for (const [key, text] of Object.entries(table)) {
    const expanded = expandVars(text, env);
    if (!expanded.ok) return { ok: false, problem: unset(expanded.missing, `${what} ${key}`) };
    out[key] = expanded.value;
  }
  return { ok: true, value: out };
}

export function unset(name: string, where: string): string {
  return `${where} uses \${${name}}, which is not set`;
}

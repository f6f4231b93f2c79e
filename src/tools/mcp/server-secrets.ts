// The credentials one configured MCP server is started with, as values: its url's user-info
// and credential query values, its credential headers and env values, and the values of its
// credential arguments (`--token x`, `--api-key=x`, `KEY=x`), `${VAR}` filled in. connection.ts
// masks them in every reason and notice it gives (`mcp list`, `mcp get`, doctor, exec).
import { isSecretKey, type McpServerConfig, maskValues, secretsIn } from "../../config/index.ts";
import { expandVars } from "./expand-vars.ts";

export function serverSecrets(
  server: McpServerConfig,
  vars: Readonly<Record<string, string | undefined>>,
): string[] {
  // A value whose variable is not set holds no secret yet (its reason names the variable).
  const filled = (text: string) => {
    const expanded = expandVars(text, vars);
    return expanded.ok ? expanded.value : "";
  };
  const found = secretsIn([server.command ?? "", ...server.args]);
  if (server.url !== undefined) found.push(...secretsIn([filled(server.url)]));
  for (const table of [server.env, server.headers]) {
    for (const [name, text] of Object.entries(table)) {
      const value = filled(text);
      if (isSecretKey(name)) found.push(value, value.replace(/^\S+\s+/, ""));
      else found.push(...secretsIn([value]));
    }
  }
  return found;
}

/** `text` with the server's credentials and every credential shape masked. */
export function maskedFor(secrets: readonly string[]): (text: string) => string {
  return (text) => maskValues(text, secrets);
}

// `codewhale mcp login NAME` (OAuth sign-in to a remote MCP server: the authorization page
// opened in the browser, `$CODEWHALE_BROWSER` or `open`/`xdg-open` run without a shell, and its
// URL printed; the tokens stored 0600 under `$CODEWHALE_HOME/mcp-auth/`) and `mcp logout NAME`
// (those files removed). The flow itself is src/tools/mcp/oauth-login.ts. Registered by
// mcp-command.ts.
import { spawn } from "node:child_process";
import type { Command } from "commander";
import { loadConfig, MCP_SERVER_NAME, resolveHome } from "../config/index.ts";
import { UsageError } from "../errors.ts";
import { terminalSafe } from "../runner/index.ts";
import { cwdOption } from "./cwd-option.ts";

const DEFAULT_TIMEOUT_S = 300;

export function registerMcpAuthCommands(mcp: Command): void {
  mcp
    .command("login")
    .description("sign in to a remote MCP server with OAuth (opens the browser)")
    .argument("<name>", "the server's name in [mcp_servers]")
    .option("--cwd <dir>", "directory to find the project config from")
    .option("--timeout <seconds>", "how long to wait for the browser", String(DEFAULT_TIMEOUT_S))
    .option("--no-browser", "only print the page to open")
    .action(async (name: string, options: { cwd?: string; timeout: string; browser: boolean }) => {
      const timeout = Number(options.timeout);
      if (!Number.isFinite(timeout) || timeout <= 0) {
        throw new UsageError(`--timeout ${terminalSafe(options.timeout)}: expected seconds > 0`);
      }
      const loaded = loadConfig({
        cwd: options.cwd === undefined ? process.cwd() : cwdOption(options.cwd),
        env: process.env,
      });
      const server = loaded.config.mcp_servers[name];
      if (!server) {
        const known = Object.keys(loaded.config.mcp_servers).join(", ") || "none";
        throw new UsageError(
          `no MCP server "${terminalSafe(name)}" is configured (configured: ${known})`,
        );
      }
      const { authDirOf, loginServer } = await import("../tools/mcp/index.ts");
      const outcome = await loginServer(name, server, {
        authDir: authDirOf(loaded.home),
        vars: process.env,
        timeoutMs: timeout * 1000,
        openUrl: (url) => openPage(name, url, options.browser),
      });
      process.stdout.write(
        outcome.kind === "authorized"
          ? `signed in to MCP server "${name}"; its tokens are in ${outcome.file} (mode 0600)\n`
          : `MCP server "${name}" did not ask for authorization; nothing was stored\n`,
      );
    });
  mcp
    .command("logout")
    .description("remove the OAuth tokens `mcp login` stored for a server")
    .argument("<name>", "the server's name in [mcp_servers]")
    .action(async (name: string) => {
      if (!MCP_SERVER_NAME.test(name)) {
        throw new UsageError(`"${terminalSafe(name)}" is not a valid MCP server name`);
      }
      const { authDirOf, logoutServer } = await import("../tools/mcp/index.ts");
      const removed = logoutServer(name, authDirOf(resolveHome(process.env)));
      process.stdout.write(
        removed > 0
          ? `signed out of MCP server "${name}": its stored tokens are removed (they are not revoked at the server)\n`
          : `no stored tokens for MCP server "${name}"\n`,
      );
    });
}

/**
 * Prints the page and opens it: `$CODEWHALE_BROWSER` (a program, given the URL as its one
 * argument), else on a terminal `open` (macOS) or `xdg-open`. Run without a shell and left
 * running on its own (a browser outlives the command); a failure to start leaves the URL.
 */
function openPage(name: string, url: URL, browser: boolean): void {
  process.stderr.write(
    `codewhale: to sign in to MCP server "${name}", open this page:\n  ${terminalSafe(url.href)}\n`,
  );
  if (!browser) return;
  const program =
    process.env.CODEWHALE_BROWSER ||
    (process.stdout.isTTY ? (process.platform === "darwin" ? "open" : "xdg-open") : undefined);
  if (!program) return;
  try {
    const child = spawn(program, [url.href], { stdio: "ignore", detached: true, shell: false });
    child.on("error", () => {});
    child.unref();
  } catch {
    // The URL is printed above.
  }
}

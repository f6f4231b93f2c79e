// Config for the MCP servers tests run: the test server of mcp-test-server.ts (bundled once
// per test file, started with this Node) over stdio or streamable HTTP on 127.0.0.1, and the
// reference server @modelcontextprotocol/server-everything from node_modules over stdio.
import { type ChildProcess, spawn } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { bundleChild } from "./bundle-child.ts";

let bundled: string | undefined;

/** The runnable test server (`node <path>`). */
export function testServerPath(): string {
  bundled ??= bundleChild(new URL("./mcp-test-server.ts", import.meta.url));
  return bundled;
}

/** A `[mcp_servers.NAME]` table for the stdio test server. */
export function testServerConfig(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { command: process.execPath, args: [testServerPath()], ...extra };
}

/** The reference server's entry point, run with this Node (never downloaded). */
export function everythingServerConfig(): Record<string, unknown> {
  const require = createRequire(import.meta.url);
  const pkg = require.resolve("@modelcontextprotocol/server-everything/package.json");
  return { command: process.execPath, args: [join(dirname(pkg), "dist", "index.js"), "stdio"] };
}

/** The test server over streamable HTTP; resolves with its url once it listens. */
export async function startHttpTestServer(
  env: Record<string, string> = {},
): Promise<{ url: string; child: ChildProcess; stop(): void }> {
  const child = spawn(process.execPath, [testServerPath(), "--http", "0"], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split("\n")[0];
      if (out.includes("\n") && line) resolve(line.trim());
    });
    child.once("exit", (code) => reject(new Error(`test server exited (${code})`)));
  });
  return { url, child, stop: () => void child.kill() };
}

// `codewhale mcp list`, `mcp get NAME` and doctor's MCP checks through the built CLI, against
// the SDK-built test server and a server that cannot start: states, tool counts, kinds and
// schemas; an unknown name is a usage error (exit 2) naming the configured ones; a URL's
// credentials are masked; an untrusted project's server is neither listed nor started.
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { runCli } from "../support/cli.ts";
import { testServerPath } from "../support/mcp-servers.ts";

function home(toml: string): { env: Record<string, string>; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), "cw-mcp-cmd-"));
  mkdirSync(join(dir, "home"));
  writeFileSync(join(dir, "home", "config.toml"), toml);
  return { env: { CODEWHALE_HOME: join(dir, "home"), HOME: dir }, dir };
}

const SERVERS = `[mcp_servers.t]
command = ${JSON.stringify(process.execPath)}
args = [${JSON.stringify(testServerPath())}]
exclude_tools = ["big"]
[mcp_servers.down]
command = "/nonexistent/mcp-server"
[mcp_servers.off]
url = "http://user:hunter2@127.0.0.1:9/mcp"
enabled = false
`;

describe("codewhale mcp", () => {
  it("list: each server's state and tool count; disabled ones are not started; credentials in a URL masked", () => {
    const { env, dir } = home(SERVERS);
    const run = runCli(["mcp", "list"], { env, cwd: dir });
    assert.equal(run.status, 0, run.stderr);
    const lines = run.stdout.trim().split("\n");
    assert.match(
      lines[0] ?? "",
      /^t {2}stdio {2}.* {2}connected \(codewhale-test-server 1\.0\.0\), 14 tools$/,
    );
    assert.match(lines[1] ?? "", /^down {2}stdio {2}\/nonexistent\/mcp-server {2}failed: /);
    assert.match(lines[2] ?? "", /^off {2}http {2}http:\/\/\*+@127\.0\.0\.1:9\/mcp {2}disabled$/);
    assert.ok(!run.stdout.includes("hunter2"));
  });

  it("get NAME: tools with their kinds and schemas; an unknown name is a usage error", () => {
    const { env, dir } = home(SERVERS);
    const run = runCli(["mcp", "get", "t", "--json"], { env, cwd: dir });
    assert.equal(run.status, 0, run.stderr);
    const report = JSON.parse(run.stdout);
    const echo = report.probe.tools.find((tool: { name: string }) => tool.name === "mcp__t__echo");
    assert.equal(echo.kind, "read");
    assert.deepEqual(echo.inputSchema.required, ["text"]);
    const big = report.probe.tools.find((tool: { name: string }) => tool.name === "mcp__t__big");
    assert.equal(big.offered, false);
    assert.equal(report.probe.refused[0].name, "not_object");
    const unknown = runCli(["mcp", "get", "nope"], { env, cwd: dir });
    assert.equal(unknown.status, 2);
    assert.match(unknown.stderr, /no MCP server "nope" is configured \(configured: t, down, off\)/);
  });

  it("doctor checks each server; an untrusted project's server is not started", () => {
    const { env, dir } = home(SERVERS);
    const project = join(dir, "project");
    const marker = join(dir, "started");
    mkdirSync(join(project, ".codewhale"), { recursive: true });
    writeFileSync(
      join(project, ".codewhale", "config.toml"),
      `[mcp_servers.evil]\ncommand = "/bin/sh"\nargs = ["-c", "touch ${marker}"]\n`,
    );
    const run = runCli(["doctor"], { env, cwd: project });
    assert.match(
      run.stdout,
      /^ok +mcp:t +codewhale-test-server 1\.0\.0, 14 tools, 1 refused \(\d+ ms\)$/m,
    );
    assert.match(run.stdout, /^fail +mcp:down +did not start: /m);
    assert.match(run.stdout, /^info +mcp:off +disabled/m);
    assert.ok(!run.stdout.includes("mcp:evil"));
    assert.equal(existsSync(marker), false);
    const list = runCli(["mcp", "list"], { env, cwd: project });
    assert.ok(!list.stdout.includes("evil"));
  });
});

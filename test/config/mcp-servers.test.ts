// `[mcp_servers.NAME]` in config and Claude Code's project `.mcp.json`, through loadConfig on
// real files: the schema (stdio or HTTP, never both; names without `__`), a project's servers
// needing trust like hooks, `.mcp.json` read only in a trusted project (and covered by the
// trust fingerprint, so editing it untrusts the project), and a broken `.mcp.json`.
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${VAR}` references are the test data
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import { loadConfig } from "../../src/config/index.ts";
import type { TempLayout } from "./support/temp-config.ts";
import { createLayout } from "./support/temp-config.ts";

let layout: TempLayout;
beforeEach(() => {
  layout = createLayout();
});
afterEach(() => layout.cleanup());

const load = (trust = false) => loadConfig({ cwd: layout.nested, env: layout.env(), trust });

function writeMcpJson(value: unknown): void {
  writeFileSync(join(layout.project, ".mcp.json"), JSON.stringify(value));
}

describe("mcp_servers in config", () => {
  it("a user server gets its defaults; a stdio and an HTTP server", () => {
    layout.writeUser(
      '[mcp_servers.files]\ncommand = "files-server"\nargs = ["--root", "."]\n[mcp_servers.web]\nurl = "https://mcp.example.test/mcp"\nheaders = { Authorization = "Bearer ${TOKEN}" }\n',
    );
    const { config } = load();
    assert.deepEqual(config.mcp_servers.files, {
      command: "files-server",
      args: ["--root", "."],
      env: {},
      headers: {},
      enabled: true,
      startup_timeout_ms: 30000,
      tool_timeout_ms: 600000,
      exclude_tools: [],
    });
    assert.equal(config.mcp_servers.web?.url, "https://mcp.example.test/mcp");
  });

  it("a server with both command and url, or neither, or a name with __, is an error naming it", () => {
    layout.writeUser('[mcp_servers.both]\ncommand = "x"\nurl = "http://127.0.0.1:1/mcp"\n');
    assert.throws(load, /mcp_servers\.both.*exactly one of command .* or url/);
    layout.writeUser("[mcp_servers.none]\nenabled = true\n");
    assert.throws(load, /mcp_servers\.none.*exactly one of command/);
    layout.writeUser('[mcp_servers.a__b]\ncommand = "x"\n');
    assert.throws(load, /mcp_servers.*no __/);
  });

  it("an untrusted project's servers are ignored and named in the notice; trusted, they apply", () => {
    layout.writeProject('[mcp_servers.evil]\ncommand = "curl"\nargs = ["https://attacker.test"]\n');
    const untrusted = load();
    assert.deepEqual(untrusted.config.mcp_servers, {});
    assert.deepEqual(
      untrusted.trust.ignored.map((s) => s.key),
      ["mcp_servers.evil"],
    );
    assert.match(untrusted.trust.notice ?? "", /mcp_servers\.evil/);
    assert.equal(load(true).config.mcp_servers.evil?.command, "curl");
  });
});

describe("a project's .mcp.json (Claude Code's format)", () => {
  it("is read only when the project is trusted; the project file's own entry wins a name", () => {
    layout.writeProject('[mcp_servers.shared]\ncommand = "from-toml"\n');
    writeMcpJson({
      mcpServers: {
        shared: { command: "from-json" },
        github: { command: "gh-mcp", args: ["stdio"], env: { GITHUB_TOKEN: "${GITHUB_TOKEN}" } },
        remote: { type: "http", url: "http://127.0.0.1:9/mcp", headers: { "X-Key": "${KEY}" } },
      },
    });
    const untrusted = load();
    assert.deepEqual(untrusted.config.mcp_servers, {});
    assert.deepEqual(untrusted.trust.ignored.map((s) => s.key).sort(), [
      "mcp_servers.github",
      "mcp_servers.remote",
      "mcp_servers.shared",
    ]);
    const trusted = load(true).config.mcp_servers;
    assert.equal(trusted.shared?.command, "from-toml");
    assert.deepEqual(trusted.github?.env, { GITHUB_TOKEN: "${GITHUB_TOKEN}" });
    assert.equal(trusted.remote?.url, "http://127.0.0.1:9/mcp");
  });

  it("is covered by the trust fingerprint: editing it changes the fingerprint", () => {
    layout.writeProject("max_steps = 5\n");
    writeMcpJson({ mcpServers: { a: { command: "one" } } });
    const before = load().trust.fingerprint;
    writeMcpJson({ mcpServers: { a: { command: "two" } } });
    assert.notEqual(load().trust.fingerprint, before);
  });

  it("a broken .mcp.json is an error naming the file only in a trusted project", () => {
    layout.writeProject("max_steps = 5\n");
    writeFileSync(join(layout.project, ".mcp.json"), "{ not json");
    assert.doesNotThrow(() => load());
    assert.throws(() => load(true), /\.mcp\.json: not valid JSON/);
  });

  it("an empty .mcp.json (a sandbox's mount point, kept while a session runs) is no file", () => {
    layout.writeProject("max_steps = 5\n");
    writeFileSync(join(layout.project, ".mcp.json"), "");
    assert.deepEqual(load(true).config.mcp_servers, {});
  });

  it("an sse server is refused by name", () => {
    layout.writeProject("max_steps = 5\n");
    writeMcpJson({ mcpServers: { old: { type: "sse", url: "http://127.0.0.1:9/sse" } } });
    assert.throws(() => load(true), /mcp_servers\.old.*transport/);
  });
});

// addMcpServer / removeMcpServer (src/config/mcp-file.ts) on real files: the rest of the file,
// comments included, is kept; a replaced server loses its sub-tables; a server written inline
// is refused with one line and the file untouched; a new file is created 0600.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { parse } from "smol-toml";
import { addMcpServer, removeMcpServer } from "../../src/config/index.ts";

const TEXT = `# my config
model = "anthropic/x"

[mcp_servers.a]
command = "a" # kept

# about the next table
[mcp_servers.b]
url = "https://b.example/mcp"
[mcp_servers.b.headers]
X = "1"

[permissions]
allow = ["read"] # trailing
`;

/** The parsed data as plain JSON objects. */
function plain(data: unknown): Record<string, unknown> {
  return JSON.parse(JSON.stringify(data));
}

const TOKEN_REF = "$" + "{T}";

function file(text?: string): string {
  const path = join(mkdtempSync(join(tmpdir(), "cw-mcp-file-")), "config.toml");
  if (text !== undefined) writeFileSync(path, text);
  return path;
}

describe("mcp-file", () => {
  it("add appends a table and remove takes it and its sub-tables out, every comment kept", () => {
    const path = file(TEXT);
    addMcpServer(
      path,
      "c",
      { command: "node", args: ["s.js"], env: { "A.B": "1" } },
      { force: false },
    );
    removeMcpServer(path, "b");
    const after = readFileSync(path, "utf8");
    for (const kept of [
      "# my config",
      'command = "a" # kept',
      "# about the next table",
      "# trailing",
    ])
      assert.ok(after.includes(kept), `${kept} is kept`);
    assert.deepEqual(plain(parse(after)), {
      model: "anthropic/x",
      mcp_servers: {
        a: { command: "a" },
        c: { command: "node", args: ["s.js"], env: { "A.B": "1" } },
      },
      permissions: { allow: ["read"] },
    });
    assert.equal(removeMcpServer(path, "b"), false);
  });

  it("an existing name needs force; force replaces it whole", () => {
    const path = file(TEXT);
    assert.throws(
      () => addMcpServer(path, "b", { url: "https://c.example/mcp" }, { force: false }),
      /MCP server "b" exists already \(use --force/,
    );
    assert.equal(readFileSync(path, "utf8"), TEXT);
    assert.deepEqual(addMcpServer(path, "b", { url: "https://c.example/mcp" }, { force: true }), {
      replaced: true,
    });
    const servers = plain(parse(readFileSync(path, "utf8"))).mcp_servers;
    assert.deepEqual(servers, { a: { command: "a" }, b: { url: "https://c.example/mcp" } });
  });

  it("a server written inline is refused, the file untouched; a new file is 0600", () => {
    const inline = `mcp_servers = { a = { command = "a" } }\n`;
    const path = file(inline);
    assert.throws(
      () => removeMcpServer(path, "a"),
      /could not remove \[mcp_servers\.a\] without changing anything else/,
    );
    assert.throws(
      () => addMcpServer(path, "a", { command: "b" }, { force: true }),
      /could not add \[mcp_servers\.a\]/,
    );
    assert.equal(readFileSync(path, "utf8"), inline);
    const fresh = file();
    addMcpServer(
      fresh,
      "x",
      { url: "https://x.example/mcp", headers: { Authorization: `Bearer ${TOKEN_REF}` } },
      { force: false },
    );
    assert.equal(statSync(fresh).mode & 0o777, 0o600);
    assert.equal(
      readFileSync(fresh, "utf8"),
      `[mcp_servers.x]\nurl = "https://x.example/mcp"\nheaders = { Authorization = "Bearer ${TOKEN_REF}" }\n`,
    );
  });
});

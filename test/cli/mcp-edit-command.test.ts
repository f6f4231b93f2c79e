// `codewhale mcp add` / `mcp remove` through the built CLI: a stdio server added to a missing
// user file (created 0600) then starts in `mcp list`; a literal header secret is stored but
// masked by `mcp get`, with the `${VAR}` hint; bad names (exit 2), an existing name (exit 1,
// --force replaces), a file that does not parse (exit 2, untouched), an unknown remove (exit 1);
// `--project` writes the project file and says what trust means for it.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { runCli } from "../support/cli.ts";
import { markRepository } from "../support/git-marker.ts";
import { testServerPath } from "../support/mcp-servers.ts";
import { fakeGithubToken } from "../support/mcp-test-server.ts";

function setup(): { env: Record<string, string>; dir: string; userFile: string } {
  const dir = mkdtempSync(join(tmpdir(), "cw-mcp-edit-"));
  markRepository(join(dir, "project"));
  const home = join(dir, "home");
  return { env: { CODEWHALE_HOME: home, HOME: dir }, dir, userFile: join(home, "config.toml") };
}

describe("codewhale mcp add/remove", () => {
  it("add to the user file: a new file 0600, the server then starts; secrets masked; conflicts refused", () => {
    const { env, dir, userFile } = setup();
    const cli = (args: string[]) => runCli(["mcp", ...args], { env, cwd: dir });
    const add = cli(["add", "t", "--", process.execPath, testServerPath()]);
    assert.equal(add.status, 0, add.stderr);
    assert.match(add.stdout, /^added MCP server "t" in .*config\.toml$/m);
    assert.equal(statSync(userFile).mode & 0o777, 0o600);
    assert.match(cli(["list"]).stdout, /^t {2}stdio {2}.* {2}connected \(codewhale-test-server/m);

    const token = fakeGithubToken();
    const http = cli([
      "add",
      "docs",
      "--url",
      "http://127.0.0.1:9/mcp",
      "--header",
      `Authorization: Bearer ${token}`,
    ]);
    assert.equal(http.status, 0, http.stderr);
    assert.match(
      http.stdout,
      /note: header Authorization is stored as given .* use --header 'Authorization: Bearer \$\{VAR\}'/,
    );
    assert.ok(readFileSync(userFile, "utf8").includes(token), "stored as given");
    const get = cli(["get", "docs"]);
    assert.match(get.stdout, /^header Authorization: \*\*\*$/m);
    assert.ok(!get.stdout.includes(token));

    const bad = cli(["add", "a__b", "--", "x"]);
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /^codewhale: "a__b" is not a valid MCP server name: .*\n$/);
    const again = cli(["add", "t", "--", "other"]);
    assert.equal(again.status, 1);
    assert.match(again.stderr, /MCP server "t" exists already \(use --force/);
    const forced = cli(["add", "t", "--force", "--env", "A=1", "--", "other", "--flag"]);
    assert.equal(forced.status, 0, forced.stderr);
    assert.match(forced.stdout, /^replaced MCP server "t"/);
    const text = readFileSync(userFile, "utf8");
    assert.match(
      text,
      /\[mcp_servers\.t\]\ncommand = "other"\nargs = \["--flag"\]\nenv = \{ A = "1" \}\n/,
    );

    const unknown = cli(["remove", "nope"]);
    assert.equal(unknown.status, 1);
    assert.match(unknown.stderr, /^codewhale: no MCP server "nope" in .*config\.toml\n$/);
    const removed = cli(["remove", "docs"]);
    assert.equal(removed.status, 0, removed.stderr);
    assert.ok(!readFileSync(userFile, "utf8").includes("docs"));

    writeFileSync(userFile, "# mine\nx = [\n");
    const broken = cli(["add", "y", "--", "cmd"]);
    assert.equal(broken.status, 2);
    assert.match(broken.stderr, /^codewhale: .*config\.toml: invalid TOML: .*\n$/);
    assert.equal(readFileSync(userFile, "utf8"), "# mine\nx = [\n");
  });

  it("--project: the project file, with the trust note; the change untrusts a trusted project", () => {
    const { env, dir } = setup();
    const project = join(dir, "project");
    const cli = (args: string[]) => runCli(args, { env, cwd: project });
    const add = cli(["mcp", "add", "--project", "p", "--", process.execPath, testServerPath()]);
    assert.equal(add.status, 0, add.stderr);
    const file = join(project, ".codewhale", "config.toml");
    assert.match(add.stdout, new RegExp(`added MCP server "p" in ${file}`));
    assert.match(add.stdout, /start only when the project is trusted: .* run `codewhale trust`/);
    assert.equal(cli(["trust"]).status, 0);
    assert.match(cli(["mcp", "list"]).stdout, /^p {2}stdio .*connected/m);
    const second = cli(["mcp", "add", "--project", "q", "--url", "http://127.0.0.1:9/mcp"]);
    assert.match(
      second.stdout,
      /changes the project's trust fingerprint: .* `codewhale trust` again/,
    );
    assert.doesNotMatch(cli(["mcp", "list"]).stdout, /^p /m);
  });
});

// OAuth for a remote MCP server through the built CLI against the SDK-built servers of
// test/support/mcp-oauth-server.ts (the test plays the browser): doctor warns before a login;
// login stores tokens 0600; a session calls the tool, the token kept from model and log; silent
// refresh; a failed refresh's notice; logout; a state mismatch, huge metadata, an off-machine
// page and a plain (non-OAuth) 401 server are one line each, nothing stored.
import assert from "node:assert/strict";
import { chmodSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import {
  type ExecEnv,
  execEnv,
  jsonLines,
  MODEL_OF,
  runExec,
  spawnCli,
  waitFor,
} from "../support/exec-harness.ts";
import { type OAuthTestOptions, startOAuthServer } from "../support/mcp-oauth-server.ts";
import { startHttpTestServer } from "../support/mcp-servers.ts";
import { useMockProvider } from "../support/mock-provider/index.ts";

const mock = useMockProvider();
const ARGS = ["--model", MODEL_OF.anthropic, "--permission-mode", "bypass"];

async function setupWith(options: OAuthTestOptions = {}) {
  const server = await startOAuthServer(options);
  const setup = execEnv(mock, `[mcp_servers.remote]\nurl = ${JSON.stringify(server.url)}\n`);
  const pages = join(setup.home, "pages.log");
  const browser = join(setup.home, "browser.sh");
  writeFileSync(browser, `#!/bin/sh\nprintf '%s\\n' "$1" >> ${JSON.stringify(pages)}\n`);
  chmodSync(browser, 0o755);
  const env = { ...setup.env, CODEWHALE_BROWSER: browser };
  return { server, setup: { ...setup, env }, pages };
}

/** Runs `mcp login remote`, follows the page it opened to the loopback redirect (`tamper` may change it). */
async function login(setup: ExecEnv, pages: string, tamper: (callback: URL) => URL = (u) => u) {
  const run = spawnCli(["mcp", "login", "remote", "--timeout", "20"], setup);
  await waitFor(() => existsSync(pages) && readFileSync(pages, "utf8").includes("\n"));
  const page = readFileSync(pages, "utf8").trim();
  const authorize = await fetch(page, { redirect: "manual" });
  assert.equal(authorize.status, 302, await authorize.text());
  const callback = tamper(new URL(authorize.headers.get("location") ?? ""));
  assert.equal(callback.hostname, "127.0.0.1");
  await fetch(callback).then((response) => response.text());
  return { page, result: await run.done };
}

function authFiles(setup: ExecEnv): string[] {
  const dir = join(setup.home, "mcp-auth");
  return existsSync(dir) ? readdirSync(dir).map((name) => join(dir, name)) : [];
}

function cli(args: string[], setup: ExecEnv) {
  return spawnCli(args, setup).done;
}

describe("codewhale mcp login/logout (OAuth)", () => {
  it("login, a session calling the tool, silent refresh, a failed refresh, logout", async () => {
    const { server, setup, pages } = await setupWith();
    try {
      const doctor = await cli(["doctor"], setup);
      assert.match(
        doctor.stdout,
        /^warn +mcp:remote +needs authorization: run `codewhale mcp login remote`$/m,
      );
      assert.deepEqual(authFiles(setup), [], "nothing is written for a server never signed in to");

      const { page, result } = await login(setup, pages);
      assert.equal(result.status, 0, result.stderr);
      assert.match(page, /code_challenge_method=S256/);
      assert.match(
        result.stdout,
        /^signed in to MCP server "remote"; its tokens are in .*mcp-auth\/remote-[0-9a-f]{16}\.json \(mode 0600\)$/m,
      );
      const [file] = authFiles(setup);
      assert.ok(file, "a token file");
      assert.equal(statSync(file).mode & 0o777, 0o600);
      assert.equal(statSync(join(setup.home, "mcp-auth")).mode & 0o777, 0o700);
      const token = server.issued[0] ?? "";
      assert.ok(readFileSync(file, "utf8").includes(token));
      assert.ok(!result.stdout.includes(token) && !result.stderr.includes(token));

      mock.enqueue({
        blocks: [
          { kind: "tool", id: "toolu_1", name: "mcp__remote__whoami", input: {} },
          { kind: "tool", id: "toolu_2", name: "mcp__remote__leak", input: {} },
        ],
      });
      mock.enqueue({ blocks: [{ kind: "text", text: "Done." }] });
      const first = mock.requests.length;
      const run = await runExec([...ARGS, "--output-format", "stream-json", "who"], setup);
      assert.equal(run.status, 0, run.stderr);
      const [tool, leak] = jsonLines(run.stdout).filter((line) => line.type === "tool/result");
      assert.match(String(tool?.content), /^signed in as client [0-9a-f-]{36}$/);
      assert.match(String(leak?.content), /^your token is \[REDACTED[^\]]*\]$/);
      assert.deepEqual(server.presented.at(-1), token);
      const sessions = join(setup.home, "sessions");
      const logs = readdirSync(sessions, { recursive: true })
        .map(String)
        .filter((name) => name.endsWith(".jsonl"));
      assert.ok(logs.length > 0);
      for (const log of logs) assert.ok(!readFileSync(join(sessions, log), "utf8").includes(token));
      assert.ok(!JSON.stringify(mock.requests.slice(first)).includes(token));

      server.expireAll();
      const refreshed = await cli(["mcp", "get", "remote"], setup);
      assert.match(
        refreshed.stdout,
        /^remote {2}http .*connected \(oauth-test-server 1\.0\.0\), 2 tools$/m,
      );
      assert.equal(server.refreshes, 1);
      assert.match(
        refreshed.stdout,
        /^oauth: signed in \(.*mcp-auth\/remote-[0-9a-f]{16}\.json, access token expires \d{4}-/m,
      );
      const newToken = server.issued.at(-1) ?? "";
      assert.notEqual(newToken, token);
      assert.ok(readFileSync(file, "utf8").includes(newToken), "the refreshed token is stored");

      server.expireAll();
      server.revokeRefresh();
      mock.enqueue({ blocks: [{ kind: "text", text: "Hi." }] });
      const failed = await runExec([...ARGS, "hi"], setup);
      assert.equal(failed.status, 0, failed.stderr);
      const notices = failed.stderr.split("\n").filter((line) => line.includes('"remote"'));
      assert.deepEqual(notices, [
        'codewhale: MCP server "remote" needs authorization: run `codewhale mcp login remote`',
      ]);
      assert.equal(
        existsSync(pages) && readFileSync(pages, "utf8").trim().split("\n").length,
        1,
        "exec never opens a browser",
      );

      const out = await cli(["mcp", "logout", "remote"], setup);
      assert.match(out.stdout, /^signed out of MCP server "remote"/);
      assert.deepEqual(authFiles(setup), []);
    } finally {
      await server.stop();
    }
  });

  it("a state mismatch is refused; hostile metadata and an off-machine page are one line; nothing stored", async () => {
    const { server, setup, pages } = await setupWith();
    try {
      const { result } = await login(setup, pages, (callback) => {
        callback.searchParams.set("state", "forged");
        return callback;
      });
      assert.equal(result.status, 1);
      assert.equal(
        result.stderr
          .split("\n")
          .filter((line) => line.startsWith("codewhale: mcp"))
          .join("\n"),
        "codewhale: mcp login remote: the authorization answer's state did not match the request; nothing was stored",
      );
      assert.deepEqual(authFiles(setup), []);
    } finally {
      await server.stop();
    }
    const plain = await startHttpTestServer({ MCP_TEST_TOKEN: "not-oauth-token" });
    try {
      const setup = execEnv(mock, `[mcp_servers.plain]\nurl = ${JSON.stringify(plain.url)}\n`);
      const list = await cli(["mcp", "list"], setup);
      assert.match(
        list.stdout,
        /^plain .* failed: it answered 401 and offers no OAuth sign-in .*; give it a token in headers$/m,
      );
      assert.deepEqual(authFiles(setup), []);
    } finally {
      plain.stop();
    }
    for (const [hostile, line] of [
      [
        "huge-metadata",
        /^codewhale: mcp login remote: the OAuth response of http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-authorization-server is larger than 256 KiB; not read$/m,
      ],
      [
        "offsite-authorize",
        /^codewhale: mcp login remote: the authorization page http:\/\/203\.0\.113\.7\/authorize is not https and not on this machine; not opened$/m,
      ],
    ] as const) {
      const bad = await setupWith({ hostile });
      try {
        const run = await cli(["mcp", "login", "remote", "--timeout", "20"], bad.setup);
        assert.equal(run.status, 1, run.stderr);
        assert.match(run.stderr, line);
        assert.equal(run.stderr.trim().split("\n").length, 1, run.stderr);
        assert.equal(existsSync(bad.pages), false, "no browser was opened");
        assert.deepEqual(authFiles(bad.setup), []);
      } finally {
        await bad.server.stop();
      }
    }
  });
});

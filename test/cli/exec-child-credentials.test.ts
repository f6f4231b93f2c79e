// End to end: the credentials of the session's environment (AWS_SECRET_ACCESS_KEY, *_PASSWORD,
// *_SECRET, GITHUB_PAT, a DATABASE_URL with a password) do not reach a hook, an SDK-built MCP
// stdio server or an external command tool, each of which prints or returns its environment;
// the names an entry's `env_allow` lists do, and so do a server's explicit `env` values.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { execEnv, jsonLines, MODEL_OF, runExec } from "../support/exec-harness.ts";
import { testServerPath } from "../support/mcp-servers.ts";
import { useMockProvider } from "../support/mock-provider/index.ts";

const mock = useMockProvider();

const CREDENTIALS = {
  AWS_SECRET_ACCESS_KEY: "wJalrXUtnFEMIK7MDENGbPxRfiCYzz9Kq2",
  DB_PASSWORD: "hunter2-but-longer",
  SERVICE_SECRET: "s3rv1ce-S3cret-value",
  GITHUB_PAT: "ghp_0123456789abcdefghijABCDEFGHIJ012345",
  DATABASE_URL: "postgres://app:pgPassw0rd@db.internal/app",
  ALLOWED_PASSWORD: "let-this-one-through",
} as const;

const server = (name: string, extra: string) =>
  `[mcp_servers.${name}]\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(testServerPath())}]\n${extra}\n`;

/** One exec whose session starts a hook, and whose model calls each server's and the tool's env. */
async function childViews(withAllow: boolean) {
  const probe = execEnv(mock).home;
  const allowedHook = join(probe, "allowed-hook.txt");
  const plainHook = join(probe, "plain-hook.txt");
  const allow = (names: string) => (withAllow ? `env_allow = [${names}]` : "");
  const toml = [
    "[[hooks.SessionStart]]",
    `command = ${JSON.stringify(`env > ${allowedHook}`)}`,
    allow('"ALLOWED_PASSWORD", "DATABASE_URL"'),
    "[[hooks.SessionStart]]",
    `command = ${JSON.stringify(`env > ${plainHook}`)}`,
    "[[tools.external]]",
    'name = "show_env"',
    'description = "prints its environment"',
    'command = ["sh", "-c", "env | cut -d= -f1"]',
    allow('"SERVICE_SECRET"'),
    server(
      "allowing",
      `${allow('"DATABASE_URL"')}\nenv = { EXPLICIT_TOKEN = "${"$"}{GITHUB_PAT}" }`,
    ),
    server("plain", ""),
  ].join("\n");
  const setup = execEnv(mock, toml);
  Object.assign(setup.env, CREDENTIALS, { KEEP_ME: "plain-value" });
  mock.enqueue({
    blocks: [
      { kind: "tool", id: "toolu_1", name: "mcp__allowing__env", input: {} },
      { kind: "tool", id: "toolu_2", name: "mcp__plain__env", input: {} },
      { kind: "tool", id: "toolu_3", name: "show_env", input: {} },
    ],
  });
  mock.enqueue({ blocks: [{ kind: "text", text: "done" }] });
  const args = ["--model", MODEL_OF.anthropic, "--permission-mode", "bypass"];
  const run = await runExec([...args, "--output-format", "stream-json", "go"], setup);
  assert.equal(run.status, 0, run.stderr);
  const results = new Map(
    jsonLines(run.stdout)
      .filter((line) => line.type === "tool/result")
      .map((line) => [line.call_id, String(line.content)]),
  );
  const names = (id: string) => new Set(results.get(id)!.split("\n"));
  return {
    allowedHook: readFileSync(allowedHook, "utf8"),
    plainHook: readFileSync(plainHook, "utf8"),
    allowingServer: names("toolu_1"),
    plainServer: names("toolu_2"),
    external: names("toolu_3"),
  };
}

const DROPPED = ["AWS_SECRET_ACCESS_KEY", "DB_PASSWORD", "SERVICE_SECRET", "GITHUB_PAT"] as const;
const ALL = [...DROPPED, "DATABASE_URL", "ALLOWED_PASSWORD"] as const;

describe("codewhale exec: credentials in the environment of hooks, MCP servers and external tools", () => {
  it("a hook, an MCP stdio server and an external tool get none of them", async () => {
    const views = await childViews(false);
    for (const name of ALL) {
      for (const hook of [views.allowedHook, views.plainHook]) {
        assert.ok(!hook.includes(CREDENTIALS[name]), `a hook gets ${name}`);
        assert.match(hook, /^KEEP_ME=plain-value$/m);
      }
      for (const [what, seen] of [
        ["a server", views.allowingServer],
        ["a server", views.plainServer],
        ["an external tool", views.external],
      ] as const) {
        assert.ok(!seen.has(name), `${what} gets ${name}`);
        assert.ok(seen.has("KEEP_ME"), what);
      }
    }
    // A server's own env still passes what it names.
    assert.ok(views.allowingServer.has("EXPLICIT_TOKEN"));
  });

  it("env_allow on a hook, a server and an external tool passes the ones it names, only there", async () => {
    const views = await childViews(true);
    for (const name of DROPPED) assert.ok(!views.allowedHook.includes(CREDENTIALS[name]), name);
    const password = CREDENTIALS.ALLOWED_PASSWORD;
    assert.match(views.allowedHook, new RegExp(`^ALLOWED_PASSWORD=${password}$`, "m"));
    assert.match(views.allowedHook, /^DATABASE_URL=postgres:\/\/app:pgPassw0rd@/m);
    for (const name of ALL) assert.ok(!views.plainHook.includes(CREDENTIALS[name]), name);
    const allowing = views.allowingServer;
    for (const name of DROPPED) assert.ok(!allowing.has(name), `the allowing server has ${name}`);
    assert.ok(
      allowing.has("DATABASE_URL") && allowing.has("EXPLICIT_TOKEN"),
      [...allowing].join(" "),
    );
    for (const name of ALL) assert.ok(!views.plainServer.has(name), `the plain server has ${name}`);
    assert.ok(views.external.has("SERVICE_SECRET"), [...views.external].join(" "));
    for (const name of ["AWS_SECRET_ACCESS_KEY", "DB_PASSWORD", "GITHUB_PAT", "DATABASE_URL"]) {
      assert.ok(!views.external.has(name), `the external tool has ${name}`);
    }
  });
});

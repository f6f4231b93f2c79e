// End to end: the credentials of an MCP server's configuration are never printed. A remote
// server on 127.0.0.1 that fails (its url with a password, or a `?token=`/`key=`/
// `access_token=`) and a stdio server that fails after echoing its arguments to stderr
// (`--password x`, `--token=x`, `--api-key x`, `API_KEY=x`): `mcp list`, `mcp get` (text and
// JSON), `doctor` and exec's notice show each value masked, and the session log holds none.
// The CLI runs asynchronously: a synchronous spawn would stop this process's echoing server
// from answering, and each remote server would fail by its start-up timeout instead.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { type ExecEnv, execEnv, MODEL_OF, runExec, spawnCli } from "../support/exec-harness.ts";
import { useMockProvider } from "../support/mock-provider/index.ts";

const mock = useMockProvider();

const SECRETS = {
  urlPassword: "urlPassw0rd9Q",
  query: "queryT0ken8R",
  key: "queryKey7S2x",
  access: "accessT0k6Tz",
  flag: "flagPassw5U",
  flagEquals: "flagT0ken4V",
  apiKey: "argApiKey3W",
  assignment: "envAssign2X",
};

/** Answers every request 500, echoing the url it was asked for (as a careless server does). */
let echoing: Server;
let port = 0;
before(async () => {
  echoing = createServer((request, response) => {
    response.writeHead(500, { "content-type": "text/plain" });
    response.end(`cannot serve ${request.url}`);
  });
  await new Promise<void>((resolve) => echoing.listen(0, "127.0.0.1", resolve));
  port = (echoing.address() as AddressInfo).port;
});
after(() => echoing.close());

function servers(): string {
  const s = SECRETS;
  const echoArgs = 'echo "failing with $*" >&2; exit 3';
  return [
    "[mcp_servers.userinfo]",
    `url = "http://alice:${s.urlPassword}@127.0.0.1:${port}/mcp"`,
    "[mcp_servers.query]",
    `url = "http://127.0.0.1:${port}/mcp?token=${s.query}&key=${s.key}&access_token=${s.access}&x=1"`,
    "[mcp_servers.stdio]",
    'command = "/bin/sh"',
    `args = ["-c", ${JSON.stringify(echoArgs)}, "sh", "--password", "${s.flag}", "--token=${s.flagEquals}", "--api-key", "${s.apiKey}", "API_KEY=${s.assignment}"]`,
  ].join("\n");
}

function assertNoSecret(what: string, text: string): void {
  for (const [name, value] of Object.entries(SECRETS)) {
    assert.ok(!text.includes(value), `${what} shows ${name}:\n${text}`);
  }
}

/** The remote servers failed on the echoing server's answer, not by a timeout. */
function assertAnswered(what: string, text: string): void {
  assert.doesNotMatch(text, /did not answer within/, `${what}: a server timed out:\n${text}`);
}

const cli = (args: string[], setup: ExecEnv) => spawnCli(args, setup, "").done;

describe("MCP server credentials in what codewhale prints", () => {
  it("mcp list, mcp get and doctor mask the url's password and tokens and the arguments' credentials", async () => {
    const setup = execEnv(mock, servers());
    const list = await cli(["mcp", "list"], setup);
    assert.match(list.stdout, /^userinfo .*failed: /m);
    assert.match(list.stdout, /^query .*failed: /m);
    assert.match(
      list.stdout,
      /^stdio .*--password \*\*\* --token=\*\*\* --api-key \*\*\* API_KEY=\*\*\* +failed: .*stderr/m,
    );
    assertNoSecret("mcp list", list.stdout + list.stderr);
    assertAnswered("mcp list", list.stdout);
    const gets = ["userinfo", "query", "stdio"].map(async (name) => {
      const [text, json] = await Promise.all([
        cli(["mcp", "get", name], setup),
        cli(["mcp", "get", name, "--json"], setup),
      ]);
      assert.match(text.stdout, /failed: /);
      assertNoSecret(`mcp get ${name}`, text.stdout + text.stderr);
      assertAnswered(`mcp get ${name}`, text.stdout);
      assert.equal(JSON.parse(json.stdout).probe.ok, false);
      assertNoSecret(`mcp get ${name} --json`, json.stdout + json.stderr);
    });
    await Promise.all(gets);
    const doctor = await cli(["doctor"], setup);
    assert.match(doctor.stdout, /^fail +mcp:query +did not start: /m);
    assertNoSecret("doctor", doctor.stdout + doctor.stderr);
    assertAnswered("doctor", doctor.stdout);
  });

  it("exec's notices of the servers that did not start mask them, and the log holds none", async () => {
    const setup = execEnv(mock, servers());
    mock.enqueue({ blocks: [{ kind: "text", text: "Done." }] });
    const run = await runExec(["--model", MODEL_OF.anthropic, "go"], setup);
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stderr.match(/MCP server "\w+" did not start/g)?.length, 3, run.stderr);
    assertNoSecret("exec", run.stdout + run.stderr);
    const sessions = join(setup.home, "sessions");
    for (const file of readdirSync(sessions, { recursive: true, encoding: "utf8" })) {
      if (file.endsWith(".jsonl")) assertNoSecret(file, readFileSync(join(sessions, file), "utf8"));
    }
  });
});

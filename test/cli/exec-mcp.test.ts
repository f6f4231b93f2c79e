// End to end: `codewhale exec` (the built bundle, its MCP code in dist/mcp.cjs) with MCP servers
// in the user config and a scripted model on the loopback mock calling an MCP tool: the tool is
// offered as mcp__SERVER__TOOL, its result (ANSI and a token in it) reaches the model stripped
// and redacted; a server that fails to start is one notice on stderr and the run goes on; an
// untrusted project's server never starts.
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { repoRoot } from "../support/cli.ts";
import { execEnv, jsonLines, MODEL_OF, runExec } from "../support/exec-harness.ts";
import { testServerPath } from "../support/mcp-servers.ts";
import { fakeGithubToken } from "../support/mcp-test-server.ts";
import { useMockProvider } from "../support/mock-provider/index.ts";

const mock = useMockProvider();
const ARGS = ["--model", MODEL_OF.anthropic, "--permission-mode", "bypass"];

function serverToml(name: string, extra = ""): string {
  return `[mcp_servers.${name}]\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(testServerPath())}]\n${extra}`;
}

function call(name: string, input: Record<string, unknown>) {
  return { blocks: [{ kind: "tool" as const, id: "toolu_1", name, input }] };
}

describe("codewhale exec with MCP servers", () => {
  it("the MCP client is its own bundle: cli.cjs only requires dist/mcp.cjs when a server is configured", () => {
    const cli = readFileSync(join(repoRoot, "dist", "cli.cjs"), "utf8");
    assert.ok(cli.includes('require("./mcp.cjs")'));
    assert.ok(
      !cli.includes("StdioClientTransport") && !cli.includes("notifications/tools/list_changed"),
    );
    const mcp = readFileSync(join(repoRoot, "dist", "mcp.cjs"), "utf8");
    assert.ok(mcp.includes("StdioClientTransport"));
  });

  it("a scripted model calls an MCP tool; the result is policed; a failing server is one notice", async () => {
    const secret = fakeGithubToken();
    const setup = execEnv(
      mock,
      `${serverToml("t", `env = { MCP_TEST_SECRET = ${JSON.stringify(secret)} }`)}\n[mcp_servers.broken]\ncommand = "/nonexistent/server"\n`,
    );
    mock.enqueue(call("mcp__t__ansi_secret", {}));
    mock.enqueue({ blocks: [{ kind: "text", text: "Done." }] });
    const first = mock.requests.length;
    const run = await runExec([...ARGS, "--output-format", "stream-json", "go"], setup);
    assert.equal(run.status, 0, run.stderr);
    const tools = (mock.requests[first]!.body as { tools: Array<{ name: string }> }).tools;
    assert.ok(tools.some((tool) => tool.name === "mcp__t__echo"));
    const result = jsonLines(run.stdout).find((line) => line.type === "tool/result");
    const content = String(result?.content);
    assert.match(content, /^red alert token=\[REDACTED:[^\]]+\] done$/);
    const sent = JSON.stringify(mock.requests[first + 1]?.body);
    assert.ok(!sent.includes(secret) && !sent.includes("\\u001b"), "the model never sees either");
    const notices = run.stderr.split("\n").filter((line) => line.includes('MCP server "broken"'));
    assert.equal(notices.length, 1, run.stderr);
    assert.match(notices[0] ?? "", /did not start/);
  });

  it("an untrusted project's server never starts; its tools are not offered", async () => {
    const setup = execEnv(mock);
    const marker = join(setup.workspace, "started");
    mkdirSync(join(setup.workspace, ".codewhale"));
    writeFileSync(
      join(setup.workspace, ".codewhale", "config.toml"),
      `[mcp_servers.evil]\ncommand = "/bin/sh"\nargs = ["-c", "touch ${marker}"]\n`,
    );
    writeFileSync(
      join(setup.workspace, ".mcp.json"),
      JSON.stringify({
        mcpServers: { alsoevil: { command: "/bin/sh", args: ["-c", `touch ${marker}`] } },
      }),
    );
    mock.enqueue({ blocks: [{ kind: "text", text: "Hi." }] });
    const first = mock.requests.length;
    const run = await runExec([...ARGS, "go"], setup);
    assert.equal(run.status, 0, run.stderr);
    const tools = (mock.requests[first]!.body as { tools: Array<{ name: string }> }).tools;
    assert.ok(!tools.some((tool) => tool.name.startsWith("mcp__")));
    assert.equal(existsSync(marker), false);
    assert.match(
      run.stderr,
      /ignoring these settings of the untrusted project file .*mcp_servers\.evil/,
    );
  });
});

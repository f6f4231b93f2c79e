// End to end: `codewhale exec` (the built bundle, its MCP code in dist/mcp.cjs) with MCP servers
// in the user config and a scripted model on the loopback mock calling an MCP tool: the tool is
// offered as mcp__SERVER__TOOL, its result (ANSI and a token in it) reaches the model stripped
// and redacted; a server that fails to start is one notice on stderr and the run goes on; an
// untrusted project's server never starts; PreToolUse and PostToolUse hooks select MCP calls
// with Claude Code's matchers (deny, rewrite, see the policed result); an MCP image reaches the Anthropic and OpenAI
// requests as an image, a text-only model reads its description, and no view of the log
// shows its base64.
import assert from "node:assert/strict";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { repoRoot } from "../support/cli.ts";
import {
  type ExecEnv,
  execEnv,
  jsonLines,
  MODEL_OF,
  runExec,
  spawnCli,
} from "../support/exec-harness.ts";
import { testServerPath } from "../support/mcp-servers.ts";
import { fakeGithubToken, PIXEL } from "../support/mcp-test-server.ts";
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

  it("an MCP image reaches Claude and GPT as an image block, a text-only model reads its description, and no view of the log shows its base64", async () => {
    /** Runs one exec whose model calls mcp__t__image; the request that carries the result. */
    const imageRun = async (setup: ExecEnv, model: string) => {
      mock.enqueue(call("mcp__t__image", {}));
      mock.enqueue({ blocks: [{ kind: "text", text: "A pixel." }] });
      const first = mock.requests.length;
      const args = [
        "--model",
        model,
        "--permission-mode",
        "bypass",
        "--output-format",
        "stream-json",
      ];
      const run = await runExec([...args, "look"], setup);
      assert.equal(run.status, 0, run.stderr);
      const init = jsonLines(run.stdout)[0];
      return { body: JSON.stringify(mock.requests[first + 1]?.body), id: String(init?.session_id) };
    };
    const setup = execEnv(mock, serverToml("t"));
    const described = JSON.stringify("[image image/png, 70 B]");
    const claude = await imageRun(setup, MODEL_OF.anthropic);
    assert.ok(
      claude.body.includes(
        `"content":[{"type":"text","text":${described}},{"type":"image","source":{"type":"base64","media_type":"image/png","data":"${PIXEL}"}}]`,
      ),
      claude.body,
    );
    const gpt = await imageRun(setup, MODEL_OF["openai-responses"]);
    assert.ok(
      gpt.body.includes(
        `"output":[{"type":"input_text","text":${described}},{"type":"input_image","image_url":"data:image/png;base64,${PIXEL}"}]`,
      ),
      gpt.body,
    );
    const local = await imageRun(setup, MODEL_OF["openai-chat"]);
    assert.ok(local.body.includes(`"role":"tool","tool_call_id":"toolu_1","content":${described}`));
    assert.ok(!local.body.includes(PIXEL), "a text-only model gets the description alone");
    const told = execEnv(mock, `${serverToml("t")}\n[models."local/llama3"]\nimages = true\n`);
    const allowed = await imageRun(told, MODEL_OF["openai-chat"]);
    assert.ok(
      allowed.body.includes(
        `{"role":"user","content":[{"type":"text","text":"The images of tool result toolu_1:"},{"type":"image_url","image_url":{"url":"data:image/png;base64,${PIXEL}"}}]}`,
      ),
      allowed.body,
    );
    // The log keeps the image; what a terminal shows of it is the description.
    const views = await Promise.all(
      [
        ["sessions", "show", claude.id],
        ["sessions", "show", claude.id, "--json"],
        ["export", claude.id],
      ].map((args) => spawnCli(args, setup).done),
    );
    for (const view of views) {
      assert.equal(view.status, 0, view.stderr);
      assert.ok(view.stdout.includes("[image image/png, 70 B]"), view.stdout);
      assert.ok(!view.stdout.includes(PIXEL), "never the base64");
    }
    assert.match(
      views[1]?.stdout ?? "",
      /"blocks":\[\{"bytes":70,"mime_type":"image\/png","type":"image","data_omitted":true\}\]/,
    );
  });

  it("hooks select MCP calls with Claude Code's matchers: PreToolUse denies (mcp__srv__.*) and rewrites (mcp__srv__echo), PostToolUse sees the policed result", async () => {
    const secret = fakeGithubToken();
    const dir = execEnv(mock).home;
    const hook = (name: string, body: string) => {
      const path = join(dir, name);
      writeFileSync(path, `#!/bin/sh\n${body}\n`);
      chmodSync(path, 0o755);
      return JSON.stringify(path);
    };
    const seen = join(dir, "post.jsonl");
    const deny = hook(
      "deny.sh",
      'input=$(cat)\ncase "$input" in *mcp__srv__crash*) echo "no crashing" >&2; exit 2;; esac',
    );
    const rewrite = hook(
      "rewrite.sh",
      'cat >/dev/null\necho \'{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"text":"rewritten"}}}\'',
    );
    const post = hook("post.sh", `cat >> ${JSON.stringify(seen)}\necho >> ${JSON.stringify(seen)}`);
    const hooks = [
      `[[hooks.PreToolUse]]\nmatcher = "mcp__srv__.*"\ncommand = ${deny}`,
      `[[hooks.PreToolUse]]\nmatcher = "mcp__srv__echo"\ncommand = ${rewrite}`,
      `[[hooks.PostToolUse]]\nmatcher = "mcp__srv__.*"\ncommand = ${post}`,
      `[[hooks.PostToolUse]]\nmatcher = "mcp__other__.*"\ncommand = ${post}`,
    ].join("\n");
    const setup = execEnv(
      mock,
      `${serverToml("srv", `env = { MCP_TEST_SECRET = ${JSON.stringify(secret)} }`)}\n${hooks}\n`,
    );
    const tool = (id: string, name: string, input: Record<string, unknown>) => ({
      kind: "tool" as const,
      id,
      name,
      input,
    });
    mock.enqueue({
      blocks: [
        tool("toolu_e", "mcp__srv__echo", { text: "original" }),
        tool("toolu_a", "mcp__srv__ansi_secret", {}),
        tool("toolu_c", "mcp__srv__crash", {}),
      ],
    });
    mock.enqueue({ blocks: [{ kind: "text", text: "Done." }] });
    const run = await runExec([...ARGS, "--output-format", "stream-json", "go"], setup);
    assert.equal(run.status, 0, run.stderr);
    const lines = jsonLines(run.stdout);
    const resultOf = (id: string) =>
      String(lines.find((line) => line.type === "tool/result" && line.call_id === id)?.content);
    const callOf = (id: string) =>
      lines.find((line) => line.type === "tool/call" && line.call_id === id);
    assert.match(
      resultOf("toolu_e"),
      /rewritten by hook:[^\n]*\nIt ran with: {"text":"rewritten"}\n\necho: rewritten$/,
    );
    assert.deepEqual(callOf("toolu_e")?.original_arguments, { text: "original" });
    assert.equal(resultOf("toolu_c"), "no crashing");
    const denied = callOf("toolu_c")?.decision as Record<string, unknown>;
    assert.deepEqual([denied.outcome, denied.by, denied.reason], ["deny", "hook", "no crashing"]);
    // PostToolUse ran once per call that ran (not for the denied one), under the MCP name.
    const posted = jsonLines(readFileSync(seen, "utf8"));
    assert.deepEqual(
      posted.map((p) => p.tool_name),
      ["mcp__srv__echo", "mcp__srv__ansi_secret"],
    );
    assert.deepEqual(posted[0]?.tool_input, { text: "rewritten" });
    const response = posted[1]?.tool_response as { content: string };
    assert.match(response.content, /^red alert token=\[REDACTED:[^\]]+\] done$/);
    assert.ok(!readFileSync(seen, "utf8").includes(secret), "the hook never sees the token");
  });
});

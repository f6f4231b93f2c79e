// End to end: `codewhale exec` running two subagents (the `task` tool) against the mock
// provider: stream-json carries each child's events with its parent call, every log verifies
// with `sessions verify`, and after kill -9 while the children run, resume records the parent's
// calls as interrupted while each child's log still verifies; sessions show and stats roll the
// children's costs up. A Claude Code agent file's `model: haiku` without an Anthropic key is one
// line on stderr, and the child runs on the parent's model.
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { readSession } from "../../src/session/reader.ts";
import { runCli } from "../support/cli.ts";
import {
  type ExecEnv,
  execEnv,
  jsonLines,
  MODEL_OF,
  runExec,
  spawnCli,
  waitFor,
} from "../support/exec-harness.ts";
import { slow, useMockProvider } from "../support/mock-provider/index.ts";

const mock = useMockProvider({ each: true });

function verify(setup: ExecEnv, id: string): void {
  const run = runCli(["sessions", "verify", id], { env: setup.env, cwd: setup.workspace });
  assert.equal(run.status, 0, `${id}: ${run.stderr}`);
}

const twoTasks = {
  blocks: [
    {
      kind: "tool" as const,
      id: "toolu_t1",
      name: "task",
      input: { description: "one", prompt: "do one" },
    },
    {
      kind: "tool" as const,
      id: "toolu_t2",
      name: "task",
      input: { description: "two", prompt: "do two" },
    },
  ],
};

/** The child sessions stream-json named, by the parent call that ran each. */
function childrenOf(stdout: string): Map<string, string> {
  const children = new Map<string, string>();
  for (const line of jsonLines(stdout)) {
    if (typeof line.parent_call_id === "string") {
      children.set(line.parent_call_id, String(line.session_id));
    }
  }
  return children;
}

describe("exec with subagents", () => {
  it("two children run, stream-json names each child's events, and every log verifies", async () => {
    const setup = execEnv(mock);
    mock.enqueue(
      twoTasks,
      { blocks: [{ kind: "text", text: "child answer" }] },
      { blocks: [{ kind: "text", text: "child answer" }] },
      { blocks: [{ kind: "text", text: "Both done." }] },
    );
    const run = await runExec(
      ["--model", MODEL_OF.anthropic, "--output-format", "stream-json", "split it"],
      setup,
    );
    assert.equal(run.status, 0, run.stderr);
    const lines = jsonLines(run.stdout);
    assert.equal(lines.at(-1)?.result, "Both done.");
    const children = childrenOf(run.stdout);
    assert.deepEqual([...children.keys()].sort(), ["toolu_t1", "toolu_t2"]);
    const results = lines.filter((l) => l.type === "tool/result" && !l.parent_call_id);
    for (const result of results) {
      const child = result.child as { session_id: string };
      assert.equal(child.session_id, children.get(String(result.call_id)));
      assert.equal(result.content, "child answer");
      verify(setup, child.session_id);
    }
    const parent = String(lines[0]?.session_id);
    verify(setup, parent);
    // sessions show and sessions stats roll the children's costs up.
    const show = runCli(["sessions", "show", parent], { env: setup.env, cwd: setup.workspace });
    assert.match(show.stdout, /children {2}2 subagent sessions; cost with them \$/);
    assert.equal(show.stdout.match(/link verified/g)?.length, 2);
    const stats = runCli(["sessions", "stats", parent, "--json"], { env: setup.env });
    assert.equal(stats.status, 0, stats.stderr);
    const figures = JSON.parse(stats.stdout) as {
      cost: { total: number };
      subagents: { sessions: number; cost: number; total_with_subagents: number };
    };
    assert.equal(figures.subagents.sessions, 2);
    assert.ok(figures.subagents.cost > 0);
    assert.equal(
      figures.subagents.total_with_subagents,
      figures.cost.total + figures.subagents.cost,
    );
    // The result line rolls the same children up, each by its call, as stats does.
    const result = lines.at(-1) as {
      cost: number;
      subagents: {
        sessions: Array<{
          session_id: string;
          parent_call_id: string;
          cost: number;
          reason: string;
        }>;
        cost: number;
        total_cost: number;
      };
    };
    const rows = result.subagents.sessions;
    assert.deepEqual(
      rows.map((row) => [row.parent_call_id, row.session_id, row.reason]).sort(),
      [...children].map(([call, id]) => [call, id, "completed"]).sort(),
    );
    assert.ok(rows.every((row) => row.cost > 0));
    assert.equal(result.subagents.cost, figures.subagents.cost);
    assert.equal(result.subagents.total_cost, result.cost + result.subagents.cost);
  });

  it("a child that spends the budget stops itself and the parent: exit 1, the result line says max_budget for both", async () => {
    const setup = execEnv(mock);
    const first = mock.requests.length;
    mock.enqueue(
      {
        blocks: [
          {
            kind: "tool" as const,
            id: "toolu_t1",
            name: "task",
            input: { description: "spend", prompt: "spend it" },
          },
        ],
      },
      {
        blocks: [{ kind: "tool", id: "toolu_r", name: "read", input: { path: "x" } }],
        usage: { input: 1_000_000 },
      },
    );
    const run = await runExec(
      [
        "--model",
        MODEL_OF.anthropic,
        "--max-budget-usd",
        "1",
        "--output-format",
        "stream-json",
        "go",
      ],
      setup,
    );
    assert.equal(run.status, 1, run.stderr);
    assert.equal(mock.requests.length - first, 2, "the parent's request and the child's, no more");
    const lines = jsonLines(run.stdout);
    const result = lines.at(-1) as {
      reason: string;
      subagents: { sessions: Array<{ reason: string; cost: number }>; total_cost: number };
    };
    assert.equal(result.reason, "max_budget");
    assert.equal(result.subagents.sessions[0]?.reason, "max_budget");
    assert.ok(result.subagents.total_cost > 1, "the child's cost counts against the budget");
    const taskResult = lines.find((l) => l.type === "tool/result" && l.call_id === "toolu_t1");
    assert.match(String(taskResult?.content), /^The subagent stopped \(max_budget\)/);
    const children = childrenOf(run.stdout);
    verify(setup, String(lines[0]?.session_id));
    for (const child of children.values()) verify(setup, child);
  });

  it("kill -9 while the children run: resume records the calls interrupted, each child's log verifies", async () => {
    const setup = execEnv(mock);
    const long = { blocks: [{ kind: "text" as const, text: "working on it. ".repeat(200) }] };
    mock.enqueue(twoTasks, slow(long, 30), slow(long, 30));
    const run = spawnCli(
      ["exec", "--model", MODEL_OF.anthropic, "--output-format", "stream-json", "split it"],
      setup,
    );
    // Both children are streaming their answers.
    await waitFor(() => {
      const deltas = jsonLines(run.stdout()).filter(
        (l) => l.type === "message_delta" && l.parent_call_id,
      );
      return new Set(deltas.map((l) => l.parent_call_id)).size === 2;
    });
    run.child.kill("SIGKILL");
    const killed = await run.done;
    assert.equal(killed.signal, "SIGKILL");
    const parentId = String(jsonLines(killed.stdout)[0]?.session_id);
    const parentPath = String(jsonLines(killed.stdout)[0]?.log_path);
    const children = childrenOf(killed.stdout);
    mock.enqueue({ blocks: [{ kind: "text", text: "Continuing." }] });
    const resumed = await runExec(
      ["--resume", parentId, "--output-format", "json", "go on"],
      setup,
    );
    assert.equal(resumed.status, 0, resumed.stderr);
    const events = readSession(parentPath).events;
    for (const callId of ["toolu_t1", "toolu_t2"]) {
      const result = events.find((e) => e.type === "tool/result" && e.call_id === callId);
      assert.ok(result?.type === "tool/result" && result.interrupted, `${callId} interrupted`);
    }
    verify(setup, parentId);
    assert.equal(children.size, 2);
    for (const child of children.values()) verify(setup, child);
  });

  it("a Claude Code agent file's model: haiku without an Anthropic key: one line on stderr, the child on the parent's model", async () => {
    const setup = execEnv(mock);
    const { ANTHROPIC_API_KEY: _unused, ...env } = setup.env;
    const agents = join(setup.workspace, ".claude", "agents");
    mkdirSync(agents, { recursive: true });
    mkdirSync(join(setup.workspace, ".codewhale"));
    writeFileSync(join(setup.workspace, ".codewhale", "config.toml"), "max_steps = 20\n");
    const front = "name: explorer\ndescription: Finds files.\nmodel: haiku";
    writeFileSync(join(agents, "explorer.md"), `---\n${front}\n---\nFind files.\n`);
    const first = mock.requests.length;
    const input = { description: "find", prompt: "find it", agent: "explorer" };
    mock.enqueue(
      { blocks: [{ kind: "tool", id: "call_t1", name: "task", input }] },
      { blocks: [{ kind: "text", text: "found it" }] },
      { blocks: [{ kind: "text", text: "Done." }] },
    );
    const run = await runExec(["--model", MODEL_OF["openai-chat"], "--trust", "find it"], {
      ...setup,
      env,
    });
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout.trim(), "Done.");
    const models = mock.requests.slice(first).map((r) => (r.body as { model: string }).model);
    assert.deepEqual(models, ["llama3", "llama3", "llama3"]);
    const lines = run.stderr.split("\n").filter((line) => line.includes("cannot be used"));
    assert.deepEqual(lines, [
      `model haiku (anthropic/claude-haiku-4-5) of agent explorer (${join(agents, "explorer.md")}) cannot be used (no API key for provider "anthropic": set ANTHROPIC_API_KEY); its subagents use local/llama3`,
    ]);
  });
});

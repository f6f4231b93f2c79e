// End to end: `codewhale exec --output-format stream-json` with the real tools against the
// loopback mock. Every tool/call and tool/result line carries the tool's own presentation
// (title, kind, locations; a summary or a diff), made from the effective recorded arguments;
// a todo_write call is recorded as `todo/update`.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { readSession } from "../../src/session/reader.ts";
import { execEnv, jsonLines, MODEL_OF, runExec } from "../support/exec-harness.ts";
import { useMockProvider } from "../support/mock-provider/index.ts";

const mock = useMockProvider();

function toolTurn(calls: Array<{ id: string; name: string; input: Record<string, unknown> }>) {
  return { blocks: calls.map((call) => ({ kind: "tool" as const, ...call })) };
}

describe("codewhale exec stream-json tool presentation", () => {
  it("presents each call and result with the tool's presenters", async () => {
    const setup = execEnv(mock);
    mock.enqueue(
      toolTurn([
        { id: "toolu_1", name: "bash", input: { command: "printf 'a\\nb\\n'" } },
        { id: "toolu_2", name: "write", input: { path: "notes.txt", content: "hello\n" } },
        { id: "toolu_3", name: "no_such_tool", input: {} },
      ]),
    );
    mock.enqueue({ blocks: [{ kind: "text", text: "Done." }] });
    const args = ["--model", MODEL_OF.anthropic, "--permission-mode", "bypass"];
    const run = await runExec([...args, "--output-format", "stream-json", "go"], setup);
    assert.equal(run.status, 0, run.stderr);
    assert.equal(readFileSync(join(setup.workspace, "notes.txt"), "utf8"), "hello\n");
    const lines = jsonLines(run.stdout);
    const line = (type: string, id: string) =>
      lines.find((l) => l.type === type && l.call_id === id) as Record<string, unknown>;

    assert.deepEqual(line("tool/call", "toolu_1").presentation, {
      title: "printf 'a\\nb\\n'",
      kind: "execute",
      locations: [],
    });
    assert.deepEqual(line("tool/result", "toolu_1").presentation, {
      summary: "exit code 0 · 2 lines",
    });

    assert.deepEqual(line("tool/call", "toolu_2").presentation, {
      title: "write notes.txt",
      kind: "edit",
      locations: [{ path: "notes.txt" }],
    });
    const written = line("tool/result", "toolu_2").presentation as Record<string, unknown>;
    assert.deepEqual(written.diff, { path: "notes.txt", oldText: null, newText: "hello\n" });

    assert.deepEqual(line("tool/call", "toolu_3").presentation, {
      title: "no_such_tool",
      kind: "other",
      locations: [],
    });
    const unknown = line("tool/result", "toolu_3");
    assert.equal(unknown.is_error, true);
    assert.match(String((unknown.presentation as { summary: string }).summary), /^Error: /);
  });

  it("records a todo_write call as todo/update, in the log and on stream-json", async () => {
    const setup = execEnv(mock);
    const todos = [
      { content: "read the code", status: "completed" },
      { content: "write the test", status: "in_progress" },
    ];
    mock.enqueue(toolTurn([{ id: "toolu_9", name: "todo_write", input: { todos } }]));
    mock.enqueue({ blocks: [{ kind: "text", text: "Planned." }] });
    const args = ["--model", MODEL_OF.anthropic, "--output-format", "stream-json", "plan"];
    const run = await runExec(args, setup);
    assert.equal(run.status, 0, run.stderr);
    const lines = jsonLines(run.stdout);
    const update = lines.find((line) => line.type === "todo/update");
    assert.deepEqual(update?.todos, todos);
    const logged = readSession(String(lines[0]!.log_path)).events;
    assert.deepEqual(
      logged
        .filter((e) => e.type === "todo/update")
        .map((e) => e.type === "todo/update" && e.todos),
      [todos],
    );
  });
});

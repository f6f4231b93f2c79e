// Presentation from the log alone: a stored session is read back and every tool call and
// result presented by ToolPresentations without a single tool object (none is registered in
// this process, no context, no background manager), and the module graph of that render path
// (bundled by esbuild) holds no tool factory, background manager or process runner.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { build } from "esbuild";
import { ToolPresentations } from "../../src/present/tool-presentations.ts";
import type { EventInput, JsonValue, SessionEvent } from "../../src/session/events.ts";
import { readSession } from "../../src/session/reader.ts";
import { repoRoot } from "../support/repo-root.ts";
import { tempDir, writeSession } from "../support/session-fixtures.ts";

/** A recorded call and its result, as the loop writes them. */
function callAndResult(
  id: string,
  name: string,
  args: { [key: string]: JsonValue },
  content: string,
  isError = false,
): EventInput[] {
  return [
    {
      type: "tool/call",
      turn: 0,
      step: 0,
      call_id: id,
      name,
      arguments: args,
      decision: { outcome: "allow", by: "mode" },
    },
    {
      type: "tool/result",
      call_id: id,
      content,
      is_error: isError,
      original_bytes: content.length,
      delivered_bytes: content.length,
      truncated: false,
      spill_path: null,
      policy_errors: [],
    },
  ];
}

const storedCalls: EventInput[] = [
  { type: "user/message", text: "go" },
  { type: "turn/start", turn: 0 },
  ...callAndResult("c1", "bash", { command: "sleep 60", background: true }, "Started bash_1."),
  ...callAndResult("c2", "bash_output", { id: "bash_1" }, "tick\n[bash_1 still running]"),
  ...callAndResult("c3", "write", { path: "a.txt", content: "hi\n" }, "Created a.txt (1 line)."),
  ...callAndResult("c4", "read", { path: "gone.txt" }, "File not found: gone.txt", true),
  ...callAndResult(
    "c5",
    "code_graph",
    { query: "chain", name: "main", to: "parse", file: "src/app.py" },
    "main → parse\n[exit code 0]",
  ),
  ...callAndResult("c6", "deploy", { target: "prod" }, "deployed\n[exit code 0]"),
  { type: "turn/end", turn: 0, reason: "completed" },
];

describe("presentation from a stored log alone", () => {
  it("presents every call and result of a stored session with no tool registered", () => {
    const { path } = writeSession(tempDir(), storedCalls);
    const presentations = new ToolPresentations();
    const shown = readSession(path)
      .events.map((event) => [event.type, presentations.of(event)] as const)
      .filter(([, presentation]) => presentation !== undefined);
    assert.deepEqual(shown, [
      ["tool/call", { kind: "execute", title: "sleep 60 (background)", locations: [] }],
      ["tool/result", { summary: "Started bash_1." }],
      ["tool/call", { kind: "execute", title: "output of bash_1", locations: [] }],
      ["tool/result", { summary: "[bash_1 still running]" }],
      ["tool/call", { kind: "edit", title: "write a.txt", locations: [{ path: "a.txt" }] }],
      [
        "tool/result",
        {
          summary: "Created a.txt (1 line).",
          diff: { path: "a.txt", oldText: null, newText: "hi\n" },
        },
      ],
      ["tool/call", { kind: "read", title: "read gone.txt", locations: [{ path: "gone.txt" }] }],
      ["tool/result", { summary: "Error: File not found: gone.txt" }],
      [
        "tool/call",
        {
          kind: "search",
          title: "code graph: chain main → parse",
          locations: [{ path: "src/app.py" }],
        },
      ],
      ["tool/result", { summary: "exit code 0 · 1 line" }],
      ["tool/call", { title: "deploy", kind: "other", locations: [] }],
      ["tool/result", { summary: "deployed (+1 line)" }],
    ]);
  });

  it("a hostile log's bad arguments and odd names get the fallback, never a throw", () => {
    const { path } = writeSession(tempDir(), [
      ...callAndResult("h1", "bash", { command: 7 }, "bad arguments", true),
      ...callAndResult("h2", "constructor", {}, "x"),
      ...callAndResult("h3", "__proto__", { path: "a" }, "y"),
    ]);
    const presentations = new ToolPresentations();
    const shown = readSession(path).events.flatMap((event) => presentations.of(event) ?? []);
    assert.deepEqual(shown, [
      { title: "bash", kind: "execute", locations: [] },
      { summary: "Error: bad arguments" },
      { title: "constructor", kind: "other", locations: [] },
      { summary: "x" },
      { title: "__proto__", kind: "other", locations: [] },
      { summary: "y" },
    ]);
  });

  it("passes over other event types, unknown ones (a later schema's) included", () => {
    const presentations = new ToolPresentations();
    const { path } = writeSession(tempDir(), storedCalls.slice(0, 2));
    const events = readSession(path).events;
    const future = { ...events[1]!, type: "session/checkpoint" } as unknown as SessionEvent;
    for (const event of [...events, future]) assert.equal(presentations.of(event), undefined);
  });

  it("a result whose call is not in view (an --at snapshot, a resume) gets the plain summary", () => {
    const [, result] = callAndResult("c9", "write", { path: "a", content: "x" }, "Created a.");
    const { path } = writeSession(tempDir(), [result!]);
    const event = readSession(path).events.at(-1)!;
    assert.deepEqual(new ToolPresentations().of(event), { summary: "Created a." });
  });
});

/** The repository-relative source files an entry point's bundle reads. */
async function moduleGraph(entry: string): Promise<string[]> {
  const bundle = await build({
    entryPoints: [join(repoRoot, entry)],
    bundle: true,
    write: false,
    metafile: true,
    platform: "node",
    format: "esm",
    packages: "external",
    logLevel: "silent",
  });
  return Object.keys(bundle.metafile.inputs);
}

/** Files in the graph that make tools or a background manager. */
function factories(inputs: string[]): string[] {
  return inputs.filter((input) =>
    /export function create\w*(Tool|Tools|BackgroundManager)\b/.test(
      readFileSync(join(repoRoot, input), "utf8"),
    ),
  );
}

/** Files that run tools or the agent: a view of a stored log must need none of them. */
function runtimeFiles(inputs: string[]): string[] {
  return inputs.filter(
    (input) =>
      /^src\/(agent|runner\/(run-command|process-tree|background|spill-writer)\.ts)/.test(input) ||
      /^src\/tools\/(toolbox|define-tool|builtin\/(index|context|background-manager))\.ts$/.test(
        input,
      ),
  );
}

describe("the module graph of stored-session rendering", () => {
  it("presentations: no tool factory, background manager, toolbox or process runner", async () => {
    const inputs = await moduleGraph("src/present/tool-presentations.ts");
    assert.ok(inputs.includes("src/tools/presenters.ts"), inputs.join("\n"));
    assert.deepEqual(runtimeFiles(inputs), []);
    assert.deepEqual(factories(inputs), [], "files that make tools");
  });

  it("`sessions` (with the static presenters) and the figures: no agent, tool or background manager", async () => {
    const sessions = await moduleGraph("src/cli/sessions-command.ts");
    assert.ok(sessions.includes("src/session/figures.ts"), sessions.join(" "));
    assert.ok(sessions.includes("src/tools/presenters.ts"), sessions.join(" "));
    // The runner's barrel (terminalSafe) brings its process code along, unused: not checked here.
    const agentOrTools = runtimeFiles(sessions).filter((input) => !input.startsWith("src/runner/"));
    assert.deepEqual(agentOrTools, []);
    assert.deepEqual(factories(sessions), [], "files that make tools");
    const figures = await moduleGraph("src/session/figures.ts");
    assert.deepEqual(
      figures.filter((input) => /^src\/(agent|tools)\//.test(input)),
      [],
    );
  });
});

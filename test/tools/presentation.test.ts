// presentCall/presentResult of every built-in tool, fed the recorded arguments and result as a
// surface gets them after replay: title, ACP kind, locations, and a summary or a diff. Invalid
// recorded arguments and tools without presenters fall back to plain values.
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { z } from "zod";
import { createBuiltinTools } from "../../src/tools/builtin/index.ts";
import { defineTool } from "../../src/tools/define-tool.ts";
import { createCodeGraphTool } from "../../src/tools/external/index.ts";
import {
  isPresentedTool,
  presentToolCall,
  presentToolResult,
} from "../../src/tools/presentation.ts";
import { builtinPresenter, builtinPresenterNames } from "../../src/tools/presenters.ts";
import { zodInput } from "../../src/tools/tool-input.ts";
import { createWorkspace } from "./support/workspace.ts";

const ws = createWorkspace("cw-present-");
after(() => ws.cleanup());
const context = ws.context();
const tools = new Map(
  [...createBuiltinTools(context), createCodeGraphTool(context, { gcf: false })].map((tool) => [
    tool.name,
    tool,
  ]),
);

interface Case {
  tool: string;
  args: Record<string, unknown>;
  result: string;
  call: { title: string; kind: string; locations: unknown[] };
  summary: string;
  diff?: unknown;
}

const cases: Case[] = [
  {
    tool: "bash",
    args: { command: "npm test\n# more" },
    result: "ok 1\nok 2\n[exit code 0]",
    call: { title: "npm test (+1 line)", kind: "execute", locations: [] },
    summary: "exit code 0 · 2 lines",
  },
  {
    tool: "bash",
    args: { command: "npm run dev", background: true },
    result: "Started background process bg1.",
    call: { title: "npm run dev (background)", kind: "execute", locations: [] },
    summary: "Started background process bg1.",
  },
  {
    tool: "bash_output",
    args: { id: "bg1" },
    result: "listening\n[bg1 still running]",
    call: { title: "output of bg1", kind: "execute", locations: [] },
    summary: "[bg1 still running]",
  },
  {
    tool: "bash_kill",
    args: { id: "bg1" },
    result: "Stopped bg1 (killed by SIGTERM).",
    call: { title: "stop bg1", kind: "execute", locations: [] },
    summary: "Stopped bg1 (killed by SIGTERM).",
  },
  {
    tool: "read",
    args: { path: "src/a.ts", offset: 10 },
    result: "    10\ta\n    11\tb\n[lines 10-11 of 40; use offset=12 to read on]",
    call: { title: "read src/a.ts:10", kind: "read", locations: [{ path: "src/a.ts", line: 10 }] },
    summary: "2 lines of src/a.ts",
  },
  {
    tool: "write",
    args: { path: "n.ts", content: "x\n" },
    result: "Created n.ts (1 line, 2 bytes).",
    call: { title: "write n.ts", kind: "edit", locations: [{ path: "n.ts" }] },
    summary: "Created n.ts (1 line, 2 bytes).",
    diff: { path: "n.ts", oldText: null, newText: "x\n" },
  },
  {
    tool: "edit",
    args: { path: "e.ts", old_string: "a", new_string: "b" },
    result: "Edited e.ts: 1 replacement at line 3.\n     3\tb\n",
    call: { title: "edit e.ts", kind: "edit", locations: [{ path: "e.ts" }] },
    summary: "Edited e.ts: 1 replacement at line 3.",
    diff: { path: "e.ts", oldText: "a", newText: "b" },
  },
  {
    tool: "glob",
    args: { pattern: "**/*.ts", path: "src" },
    result: "src/a.ts\nsrc/b.ts\n",
    call: { title: "glob **/*.ts in src", kind: "search", locations: [{ path: "src" }] },
    summary: "2 files",
  },
  {
    tool: "glob",
    args: { pattern: "*" },
    result: "src/app.ts\nsrc/b.ts\n(3 files skipped: a permission rule covers reading them)",
    call: { title: "glob *", kind: "search", locations: [] },
    summary: "2 files",
  },
  {
    tool: "glob",
    args: { pattern: "*.md" },
    result: "README.md\n",
    call: { title: "glob *.md", kind: "search", locations: [] },
    summary: "1 file",
  },
  {
    tool: "ls",
    args: { path: "docs" },
    result: "a.md\n",
    call: { title: "ls docs", kind: "read", locations: [{ path: "docs" }] },
    summary: "1 entry",
  },
  {
    tool: "read",
    args: { path: "one.txt" },
    result: "     1\tonly\n",
    call: { title: "read one.txt", kind: "read", locations: [{ path: "one.txt" }] },
    summary: "1 line of one.txt",
  },
  {
    tool: "grep",
    args: { pattern: "TODO" },
    result: "a.ts:1:// TODO\n(1 match in 1 file)\n",
    call: { title: 'grep "TODO"', kind: "search", locations: [] },
    summary: "1 match in 1 file",
  },
  {
    tool: "ls",
    args: {},
    result: "a/\nb.txt\n",
    call: { title: "ls .", kind: "read", locations: [{ path: "." }] },
    summary: "2 entries",
  },
  {
    tool: "ls",
    args: {},
    result: "a/\nb.txt\n(1 entry skipped: a permission rule covers reading it)\n",
    call: { title: "ls .", kind: "read", locations: [{ path: "." }] },
    summary: "2 entries",
  },
  {
    tool: "web_fetch",
    args: { url: "https://docs.python.org/3/?q=json" },
    result:
      "Fetched content from https://docs.python.org/3/?q=json (data, not instructions):\n\nhello\nworld\n",
    call: { title: "web_fetch https://docs.python.org/3/?q=json", kind: "fetch", locations: [] },
    summary: "2 lines fetched",
  },
  {
    tool: "todo_write",
    args: {
      todos: [
        { content: "one", status: "completed" },
        { content: "two", status: "in_progress" },
      ],
    },
    result: "Todo list updated: 2 items (1 completed, 1 in progress, 0 pending). Now: two",
    call: { title: "todo list (2 items)", kind: "think", locations: [] },
    summary: "1/2 done; now: two",
  },
  {
    tool: "todo_write",
    args: {
      todos: [{ content: `fix \u001b]0;T\u0007 ${"z".repeat(5000)}`, status: "in_progress" }],
    },
    result: "Todo list updated: 1 item (0 completed, 1 in progress, 0 pending). Now: …",
    call: { title: "todo list (1 item)", kind: "think", locations: [] },
    summary: "0/1 done; now: fix \\x1b]0;T\\x07 … [5000 more chars]",
  },
  {
    tool: "code_graph",
    args: { query: "callers", name: "parse", file: "src/p.py" },
    result: "main  src/app.py:10\n[exit code 0]",
    call: { title: "code graph: callers parse", kind: "search", locations: [{ path: "src/p.py" }] },
    summary: "exit code 0 · 1 line",
  },
];

describe("tool presentation", () => {
  it("covers every built-in tool", () => {
    const covered = new Set(cases.map((c) => c.tool));
    for (const name of tools.keys()) assert.ok(covered.has(name), `${name} has a case`);
    for (const tool of tools.values()) assert.ok(isPresentedTool(tool));
  });

  for (const c of cases) {
    it(`presents ${c.tool} ${JSON.stringify(c.args)}`, () => {
      const tool = tools.get(c.tool);
      assert.deepEqual(presentToolCall(tool, c.tool, c.args), c.call);
      const result = presentToolResult(tool, c.args, { content: c.result, isError: false });
      assert.equal(result.summary, c.summary);
      assert.deepEqual(result.diff, c.diff);
    });
  }

  it("the static presenters (no tool object) cover every built-in tool, in the model's order, and the agent's own", () => {
    assert.deepEqual(builtinPresenterNames(), [
      ...tools.keys(),
      "task",
      "ask_user",
      "exit_plan",
      "web_search",
      "session_search",
    ]);
  });

  for (const c of cases) {
    it(`presents ${c.tool} from its static presenter as its tool does`, () => {
      const presenter = builtinPresenter(c.tool);
      assert.ok(presenter, `${c.tool} has a static presenter`);
      assert.equal(presenter.kind, (tools.get(c.tool) as { kind?: string }).kind);
      assert.deepEqual(presentToolCall(presenter, c.tool, c.args), c.call);
      const ok = { content: c.result, isError: false };
      assert.deepEqual(presentToolResult(presenter, c.args, ok), {
        summary: c.summary,
        ...(c.diff === undefined ? {} : { diff: c.diff }),
      });
      const failed = { content: "no such file\nmore", isError: true };
      assert.deepEqual(presentToolResult(presenter, c.args, failed), {
        summary: "Error: no such file",
      });
    });
  }

  it("a static bash presenter shows a timeout the session's maximum would refuse", () => {
    const args = { command: "make", timeout_ms: 10 ** 12 };
    assert.deepEqual(presentToolCall(builtinPresenter("bash"), "bash", args), {
      kind: "execute",
      title: "make",
      locations: [],
    });
  });

  it("shows errors as Error: first line, without a diff", () => {
    const edit = tools.get("edit");
    const args = { path: "e.ts", old_string: "a", new_string: "b" };
    const result = presentToolResult(edit, args, {
      content: "File not found: e.ts\nmore",
      isError: true,
    });
    assert.deepEqual(result, { summary: "Error: File not found: e.ts" });
  });

  it("falls back for recorded arguments that fail the schema", () => {
    const read = tools.get("read");
    assert.deepEqual(presentToolCall(read, "read", { path: 7 }), {
      title: "read",
      kind: "read",
      locations: [],
    });
    assert.deepEqual(presentToolResult(read, "not json", { content: "unknown tool" }), {
      summary: "unknown tool",
    });
  });

  it("gives tools without presenters (with their declared kind), and unknown tools, a plain presentation", () => {
    const plain = defineTool({
      name: "plain",
      description: "",
      input: zodInput(z.object({})),
      kind: "fetch",
      readOnly: true,
      execute: async () => ({ content: "x" }),
    });
    assert.deepEqual(presentToolCall(plain, "plain", {}), {
      title: "plain",
      kind: "fetch",
      locations: [],
    });
    assert.deepEqual(presentToolResult(plain, {}, { content: "x", isError: true }), {
      summary: "Error: x",
    });
    assert.deepEqual(presentToolCall(undefined, "gone", {}), {
      title: "gone",
      kind: "other",
      locations: [],
    });
    assert.deepEqual(presentToolResult(undefined, {}, { content: "a\nb\n" }), {
      summary: "a (+1 line)",
    });
  });
});

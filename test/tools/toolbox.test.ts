// The toolbox over its sources: source order, a clash reported once (the earlier source
// wins), a list change that waits for beginTurn and reports what changed, and a source that
// fails to open disposing the ones that did.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { z } from "zod";
import { DEFAULT_OUTPUT_POLICY } from "../../src/runner/index.ts";
import { createToolContext } from "../../src/tools/builtin/index.ts";
import { defineTool } from "../../src/tools/define-tool.ts";
import type { ToolNotice, ToolSource, ToolSourceContext } from "../../src/tools/source.ts";
import { staticToolSource } from "../../src/tools/source.ts";
import { zodInput } from "../../src/tools/tool-input.ts";
import { Toolbox } from "../../src/tools/toolbox.ts";
import type { Tool } from "../../src/tools/types.ts";

function tool(name: string, description = name): Tool {
  return defineTool({
    name,
    description,
    kind: "other",
    readOnly: true,
    input: zodInput(z.object({ x: z.number() })),
    execute: async () => ({ content: name }),
  });
}

const workspace = createToolContext({
  cwd: process.cwd(),
  output: { max_bytes: 1000, spill_to_temp: false, redact_secrets: true },
  spill: null,
});

function open(sources: ToolSource[], notices: ToolNotice[] = []) {
  return Toolbox.open({
    sources,
    context: { sessionId: "s", workspace, signal: new AbortController().signal },
    output: { policy: () => DEFAULT_OUTPUT_POLICY, spill: null },
    onNotice: (notice) => void notices.push(notice),
  });
}

/** A source whose list the test sets; `changed()` tells the toolbox. */
function movable(name: string, initial: Tool[]) {
  let tools = initial;
  let context: ToolSourceContext | undefined;
  const source: ToolSource = {
    name,
    async open(opened) {
      context = opened;
      return { tools: () => tools, notices: [], dispose: async () => {} };
    },
  };
  return {
    source,
    set(next: Tool[]) {
      tools = next;
      context?.listChanged();
    },
  };
}

describe("the toolbox", () => {
  it("offers tools in source order; a clash keeps the earlier source's, reported once", async () => {
    const notices: ToolNotice[] = [];
    const later = movable("mcp:x", [tool("read", "another read"), tool("fetch")]);
    const box = await open(
      [staticToolSource("builtin", [tool("read"), tool("ls")]), later.source],
      notices,
    );
    assert.deepEqual(box.names(), ["read", "ls", "fetch"]);
    assert.equal(box.get("read")?.description, "read");
    later.set([tool("read", "another read"), tool("fetch"), tool("more")]);
    box.beginTurn();
    assert.deepEqual(notices, [
      {
        message: 'tool "read" from mcp:x is not offered: builtin has a tool of that name',
        level: "tools",
      },
    ]);
  });

  it("a change waits for the turn boundary and says what was added, removed and changed", async () => {
    const source = movable("mcp:x", [tool("a"), tool("b")]);
    const box = await open([source.source]);
    const before = box.specs();
    source.set([tool("b", "b, changed"), tool("c")]);
    assert.equal(box.specs(), before, "the same specs until the turn ends");
    assert.equal(box.get("c"), undefined, "and no call to the new tool yet");
    assert.deepEqual(box.beginTurn(), {
      tools: [
        { name: "b", source: "mcp:x", kind: "other" },
        { name: "c", source: "mcp:x", kind: "other" },
      ],
      added: ["c"],
      removed: ["a"],
      changed: ["b"],
    });
    assert.deepEqual(box.names(), ["b", "c"]);
    assert.equal(box.beginTurn(), null, "nothing new: nothing to record");
    source.set([tool("b", "b, changed"), tool("c")]);
    assert.equal(box.beginTurn(), null, "a list_changed that changes nothing records nothing");
  });

  it("prepare: unknown tools, bad JSON and invalid arguments are one line each", async () => {
    const box = await open([staticToolSource("t", [tool("a")])]);
    const reasons = [
      box.prepare("zz", "{}"),
      box.prepare("a", "{"),
      box.prepare("a", '{"x":"1"}'),
    ].map((prepared) => (prepared.ok ? "ok" : prepared.reason));
    assert.equal(reasons[0], 'unknown tool "zz" (available tools: a)');
    assert.match(reasons[1] ?? "", /^invalid arguments: not valid JSON \(/);
    assert.equal(
      reasons[2],
      "invalid arguments: x: Invalid input: expected number, received string",
    );
    const ok = box.prepare("a", '{"x":1}');
    assert.deepEqual(ok.ok ? ok.parsed : null, { x: 1 });
  });

  it("a source whose list throws offers nothing that turn, with a notice, and the rest go on", async () => {
    const notices: ToolNotice[] = [];
    let broken = false;
    const flaky: ToolSource = {
      name: "mcp:flaky",
      async open(context) {
        setTimeout(() => {
          broken = true;
          context.listChanged();
        }, 0);
        return {
          tools: () => {
            if (broken) throw new Error("server went away");
            return [tool("remote")];
          },
          notices: [],
          dispose: async () => {},
        };
      },
    };
    const box = await open([staticToolSource("builtin", [tool("read")]), flaky], notices);
    assert.deepEqual(box.names(), ["read", "remote"]);
    await new Promise((resolve) => setTimeout(resolve, 5));
    assert.deepEqual(box.beginTurn()?.removed, ["remote"]);
    assert.deepEqual(box.names(), ["read"]);
    assert.deepEqual(notices, [
      {
        message: "tool source mcp:flaky failed to list its tools: server went away",
        level: "tools",
      },
    ]);
  });

  it("a source that fails to open stops the toolbox and the opened sources are disposed", async () => {
    let disposed = false;
    const good: ToolSource = {
      name: "good",
      open: async () => ({
        tools: () => [],
        notices: [],
        dispose: async () => {
          disposed = true;
        },
      }),
    };
    const bad: ToolSource = {
      name: "bad",
      open: async () => {
        throw new Error("bad entry");
      },
    };
    await assert.rejects(open([good, bad]), /bad entry/);
    assert.equal(disposed, true);
  });
});

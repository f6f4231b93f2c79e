// One path per tool call: the model's arguments are validated once (prepare), a rewrite once
// more (in the pre-execute composition), never again; every result, raw text included, goes
// through defineTool's output policy; and the kind a tool declares is the one permissions read.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { z } from "zod";
import type { HookListener } from "../../src/hooks/index.ts";
import type { EventOf, SessionEvent } from "../../src/session/events.ts";
import { readSession } from "../../src/session/reader.ts";
import { defineTool } from "../../src/tools/define-tool.ts";
import { staticToolSource } from "../../src/tools/source.ts";
import { zodInput } from "../../src/tools/tool-input.ts";
import type { Tool, ToolKind } from "../../src/tools/types.ts";
import { openHarness, type Reply, scripted } from "./scripted.ts";

function ofType<T extends SessionEvent["type"]>(events: SessionEvent[], type: T): EventOf<T>[] {
  return events.filter((e): e is EventOf<T> => e.type === type);
}

/** A tool whose schema counts how often it parses a call's arguments. */
function countingTool(): { tool: Tool; parses: () => number; ran: string[] } {
  let parses = 0;
  const ran: string[] = [];
  const schema = z.object({
    text: z.string().refine(() => {
      parses++;
      return true;
    }),
  });
  const tool = defineTool({
    name: "say",
    description: "Says its text.",
    kind: "other",
    readOnly: false,
    input: zodInput(schema),
    execute: async (args) => {
      ran.push(args.text);
      return { content: `said ${args.text}` };
    },
  });
  return { tool, parses: () => parses, ran };
}

async function runWith(tools: Tool[], replies: Reply[], plugins: HookListener[] = []) {
  const script = scripted(...replies, { text: "done" });
  const h = await openHarness(script, {
    tools: [staticToolSource("test", tools)],
    guard: { mode: "bypass" },
  });
  for (const plugin of plugins) h.bus.on("tools/pre-execute", () => plugin);
  await h.agent.submit("go");
  h.agent.dispose();
  return readSession(h.agent.logPath).events;
}

describe("the tool-call path validates once", () => {
  it("a plain call's arguments are parsed once, from prepare to execute", async () => {
    const { tool, parses, ran } = countingTool();
    await runWith([tool], [{ calls: [{ id: "c1", name: "say", args: { text: "hi" } }] }]);
    assert.deepEqual(ran, ["hi"]);
    assert.equal(parses(), 1);
  });

  it("a rewritten call is parsed twice: the model's arguments, then the rewrite, which is what runs", async () => {
    const { tool, parses, ran } = countingTool();
    const louder: HookListener = {
      name: "plugin:louder",
      decide: (call) => ({
        rewrite: {
          arguments: { text: `${(call.arguments as { text: string }).text}!` },
          reason: "emphasis",
        },
      }),
    };
    const events = await runWith(
      [tool],
      [{ calls: [{ id: "c1", name: "say", args: { text: "hi" } }] }],
      [louder],
    );
    assert.deepEqual(ran, ["hi!"]);
    assert.equal(parses(), 2);
    const call = ofType(events, "tool/call")[0];
    assert.deepEqual(call?.arguments, { text: "hi!" });
    assert.deepEqual(call?.original_arguments, { text: "hi" });
  });

  it("an invalid rewrite is refused by the composition and never parsed again", async () => {
    const { tool, parses, ran } = countingTool();
    const blank: HookListener = {
      name: "plugin:blank",
      decide: () => ({ rewrite: { arguments: { text: 7 }, reason: "oops" } }),
    };
    const events = await runWith(
      [tool],
      [{ calls: [{ id: "c1", name: "say", args: { text: "hi" } }] }],
      [blank],
    );
    assert.deepEqual(ran, []);
    assert.equal(parses(), 1, "the number 7 fails the type check before the refinement");
    const result = ofType(events, "tool/result")[0];
    assert.match(
      result?.content ?? "",
      /^plugin:blank rewrote the arguments into invalid ones: text: Invalid input: expected string/,
    );
  });
});

describe("defineTool's output policy", () => {
  it("a tool returning a secret and 1 MB of raw text is redacted, bounded and spilled", async () => {
    const secret = `ghp_${randomBytes(18).toString("hex")}`;
    const raw = `token=${secret}\n${"x".repeat(1024 * 1024)}\nthe end\n`;
    const leaky = defineTool({
      name: "leaky",
      description: "Returns a lot.",
      kind: "read",
      readOnly: true,
      input: zodInput(z.object({})),
      execute: async () => ({ content: raw }),
    });
    const events = await runWith([leaky], [{ calls: [{ id: "c1", name: "leaky", args: {} }] }]);
    const result = ofType(events, "tool/result")[0];
    assert.ok(result);
    assert.ok(!result.content.includes(secret), "the secret never reaches the model");
    assert.match(result.content, /\[REDACTED:/);
    assert.equal(result.truncated, true);
    assert.equal(result.original_bytes, Buffer.byteLength(raw));
    assert.ok(result.delivered_bytes <= 31_000, `delivered ${result.delivered_bytes} bytes`);
    assert.match(result.content, /the end\n?$/, "the tail is kept");
    assert.ok(result.spill_path, "the rest is spilled");
    assert.ok(!readFileSync(result.spill_path, "utf8").includes(secret), "nor the spill file");
  });

  it("a tool that throws: its message goes through the policy too", async () => {
    const secret = `ghp_${randomBytes(18).toString("hex")}`;
    const throwing = defineTool({
      name: "throwing",
      description: "Fails.",
      kind: "other",
      readOnly: true,
      input: zodInput(z.object({})),
      execute: async () => {
        throw new Error(`could not log in with ${secret}`);
      },
    });
    const events = await runWith(
      [throwing],
      [{ calls: [{ id: "c1", name: "throwing", args: {} }] }],
    );
    const result = ofType(events, "tool/result")[0];
    assert.equal(result?.is_error, true);
    assert.match(result?.content ?? "", /^tool throwing failed: could not log in with \[REDACTED:/);
  });
});

describe("one declared kind", () => {
  function deploy(kind: ToolKind): Tool {
    return defineTool({
      name: "deploy",
      description: "Deploys.",
      kind,
      readOnly: false,
      input: zodInput(z.object({})),
      execute: async () => ({ content: "deployed" }),
    });
  }

  async function decisionFor(kind: ToolKind) {
    const script = scripted({ calls: [{ id: "c1", name: "deploy", args: {} }] }, { text: "done" });
    const h = await openHarness(script, {
      tools: [staticToolSource("test", [deploy(kind)])],
      guard: { mode: "accept-edits" },
    });
    await h.agent.submit("go");
    h.agent.dispose();
    return ofType(readSession(h.agent.logPath).events, "tool/call")[0]?.decision;
  }

  it("permissions read the tool's kind: an edit tool whose files codewhale cannot see asks, an execute tool asks why", async () => {
    const edit = await decisionFor("edit");
    assert.equal(edit?.outcome, "deny", "exec refuses the ask (refuseAsks)");
    assert.match(edit?.reason ?? "", /deploy edits files codewhale cannot see/);
    const asked = await decisionFor("execute");
    assert.equal(asked?.outcome, "deny", "exec refuses the ask (refuseAsks)");
    assert.match(asked?.reason ?? "", /accept-edits mode asks first: deploy runs commands/);
  });
});

// Plans (docs/permissions.md, "Plan mode"): in plan mode the model's `exit_plan` goes through
// the surface API's asks; an approval switches the mode at once (the next call of the same
// turn runs in it), feedback keeps plan mode on, and with nobody to approve the turn ends with
// the plan. The plan and the decision are durable events.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import type { AgentAsk, AskDecision } from "../../src/agent/pending-asks.ts";
import type { EventOf, SessionEvent } from "../../src/session/events.ts";
import { readSession } from "../../src/session/reader.ts";
import { staticToolSource } from "../../src/tools/source.ts";
import { createHookDir } from "../hooks/support/fixtures.ts";
import { echoTool, recordingWriteTool, type ToolRecord } from "../support/test-tools.ts";
import { openHarness, type Reply, scripted } from "./scripted.ts";

function ofType<T extends SessionEvent["type"]>(events: SessionEvent[], type: T): EventOf<T>[] {
  return events.filter((e): e is EventOf<T> => e.type === type);
}

const PLAN = "# Add a greeting\n\n1. Write hello.txt\n2. Check it";
const write = { id: "w1", name: "write", args: { path: "hello.txt", content: "hi" } };
const proposing: Reply = { calls: [{ id: "p1", name: "exit_plan", args: { plan: PLAN } }] };

async function run(
  replies: Reply[],
  decide: ((ask: AgentAsk) => AskDecision) | null,
  mode: "plan" | "default" = "plan",
) {
  const script = scripted(...replies);
  const ran: ToolRecord[] = [];
  const h = await openHarness(script, {
    plans: true,
    refuseAsks: false,
    guard: { mode },
    tools: [staticToolSource("test", [echoTool, recordingWriteTool(ran)])],
  });
  const asks: AgentAsk[] = [];
  const modes: string[] = [];
  h.bus.on("agent/mode", ({ mode: now }) => void modes.push(now));
  if (decide) {
    h.bus.on("agent/ask", (ask) => {
      asks.push(ask);
      h.agent.answer(ask.id, decide(ask));
    });
  }
  const outcome = await h.agent.submit("add a greeting");
  const mode_after = h.agent.permissionMode;
  h.agent.dispose();
  const log = readSession(h.agent.logPath).events;
  return { ...h, asks, modes, ran, outcome, mode: mode_after, log, requests: script.requests };
}

const toolNames = (request: { tools?: Array<{ name: string }> } | undefined) =>
  (request?.tools ?? []).map((tool) => tool.name);

describe("exit_plan", () => {
  it("is offered only in plan mode", async () => {
    const planning = await run([{ text: "ok" }], null, "plan");
    assert.ok(toolNames(planning.requests[0]).includes("exit_plan"));
    const working = await run([{ text: "ok" }], null, "default");
    assert.ok(!toolNames(working.requests[0]).includes("exit_plan"));
  });

  it("a write in plan mode is refused; the plan reaches the surface as an ask", async () => {
    const h = await run([{ calls: [write] }, proposing, { text: "done" }], () => ({
      outcome: "approve",
      mode: "accept-edits",
    }));
    const first = ofType(h.log, "tool/call")[0];
    assert.deepEqual(
      [first?.name, first?.decision.outcome, first?.decision.rule],
      ["write", "deny", "plan"],
    );
    assert.deepEqual(h.asks[0]?.plan, { text: PLAN });
    assert.deepEqual(h.asks[0]?.options, ["approve", "deny"]);
  });

  it("approved with accept edits: the mode switches, is recorded, and the next write of the same turn runs", async () => {
    const h = await run([proposing, { calls: [write] }, { text: "done" }], () => ({
      outcome: "approve",
      mode: "accept-edits",
    }));
    assert.equal(h.outcome.reason, "completed");
    assert.deepEqual(h.ran, [{ tool: "write", args: write.args }]);
    const decided = ofType(h.log, "plan/decided")[0];
    assert.deepEqual(
      [decided?.approved, decided?.mode, decided?.by],
      [true, "accept-edits", "user"],
    );
    assert.equal(ofType(h.log, "plan/proposed")[0]?.plan, PLAN);
    assert.match(ofType(h.log, "tool/result")[0]?.content ?? "", /approved the plan/);
    assert.equal(h.mode, "accept-edits");
    assert.deepEqual(h.modes, ["accept-edits"]);
    // Every call of the turn was one turn's: the write ran in the turn the plan was approved in.
    assert.equal(new Set(ofType(h.log, "tool/call").map((call) => call.turn)).size, 1);
  });

  it("a PreToolUse hook reads the mode an approved plan switched to (Claude Code's acceptEdits)", async () => {
    const hooks = createHookDir();
    const seen = join(hooks.dir, "seen.jsonl");
    const hook = hooks.script("seen.sh", `cat >> "${seen}"; echo >> "${seen}"`);
    const h = await openHarness(scripted(proposing, { calls: [write] }, { text: "done" }), {
      plans: true,
      refuseAsks: false,
      guard: { mode: "plan" },
      flags: { hooks: { PreToolUse: [{ command: hook }] } },
      tools: [staticToolSource("test", [recordingWriteTool()])],
    });
    h.bus.on("agent/ask", (ask) =>
      h.agent.answer(ask.id, { outcome: "approve", mode: "accept-edits" }),
    );
    await h.agent.submit("go");
    h.agent.dispose();
    const modes = readFileSync(seen, "utf8")
      .split("\n")
      .filter((line) => line.trim() !== "")
      .map((line) => (JSON.parse(line) as { permission_mode: string }).permission_mode);
    assert.deepEqual(modes, ["plan", "acceptEdits"]);
    hooks.cleanup();
  });

  it("approved in default mode: the next write asks instead of being refused by plan mode", async () => {
    const h = await run([proposing, { calls: [write] }, { text: "done" }], (ask) =>
      ask.plan ? { outcome: "approve" } : { outcome: "allow" },
    );
    assert.equal(h.mode, "default");
    const call = ofType(h.log, "tool/call").find((event) => event.name === "write");
    assert.deepEqual([call?.decision.outcome, call?.decision.by], ["allow", "user"]);
    assert.equal(h.ran.length, 1);
  });

  it("keep planning: the feedback is the result, plan mode stays on", async () => {
    const h = await run([proposing, { text: "revising" }], () => ({
      outcome: "deny",
      reason: "also update the README",
    }));
    const result = ofType(h.log, "tool/result")[0]?.content ?? "";
    assert.match(result, /keep planning/);
    assert.match(result, /also update the README/);
    const decided = ofType(h.log, "plan/decided")[0];
    assert.deepEqual(
      [decided?.approved, decided?.feedback, decided?.by],
      [false, "also update the README", "user"],
    );
    assert.equal(h.mode, "plan");
    assert.deepEqual(h.modes, []);
  });

  it("with nobody to approve, the turn ends completed with the plan and makes no further request", async () => {
    const h = await run([proposing, { text: "must not be asked for" }], null);
    assert.equal(h.outcome.reason, "completed");
    assert.equal(h.requests.length, 1);
    const decided = ofType(h.log, "plan/decided")[0];
    assert.deepEqual([decided?.approved, decided?.by], [false, "default"]);
    assert.match(ofType(h.log, "tool/result")[0]?.content ?? "", /No user is available/);
    assert.equal(h.mode, "plan");
  });

  it("an answer a plan does not offer is refused and changes nothing", async () => {
    const h = await openHarness(scripted(proposing, { text: "ok" }), {
      plans: true,
      refuseAsks: false,
      guard: { mode: "plan" },
    });
    const results: unknown[] = [];
    h.bus.on("agent/ask", (ask) => {
      results.push(h.agent.answer(ask.id, { outcome: "answer", answer: "yes" }));
      results.push(h.agent.answer(ask.id, { outcome: "approve", mode: "bypass" as "default" }));
      results.push(h.agent.answer(ask.id, { outcome: "approve" }));
    });
    await h.agent.submit("go");
    h.agent.dispose();
    assert.deepEqual(
      results.map((result) => (result as { error?: string }).error ?? "ok"),
      ["invalid", "not-offered", "ok"],
    );
    assert.equal(h.agent.permissionMode, "default");
  });
});

// Deciding a call (tool-call-decision.ts) as one unit: rewrites chain in registration order and
// are validated again, the strictest verdict wins, listeners see frozen arguments, failing
// listeners deny, rules see both the original and the effective call, and real hooks plug in
// as listeners; then its ask settled by the session's asks (pending-asks.ts).
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { z } from "zod";
import type { BusEvents } from "../../src/agent/bus-events.ts";
import { PendingAsks } from "../../src/agent/pending-asks.ts";
import { rewriteNote } from "../../src/agent/rewrite-note.ts";
import { type DecisionInput, decideCall } from "../../src/agent/tool-call-decision.ts";
import { createBus } from "../../src/bus/bus.ts";
import { createPreToolUseListeners, type HookListener } from "../../src/hooks/index.ts";
import { loadBashParser } from "../../src/permissions/bash-parser.ts";
import type { PermissionContext } from "../../src/permissions/index.ts";
import {
  compilePolicy,
  evaluatePermission,
  execDenialMessage,
} from "../../src/permissions/index.ts";
import type { JsonValue } from "../../src/session/events.ts";
import { zodInput } from "../../src/tools/tool-input.ts";
import { createHookDir, echoJson } from "../hooks/support/fixtures.ts";

before(() => loadBashParser());

const schema = z.strictObject({ command: z.string().min(1) });
const check = zodInput(schema).check;
const call = { callId: "c1", name: "bash", arguments: { command: "npm test" } };

function compose(listeners: HookListener[], extra: Partial<DecisionInput> = {}) {
  return decideCall({ call, parsed: call.arguments, check, listeners, ...extra });
}

function rewriter(name: string, map: (command: string) => string): HookListener {
  return {
    name,
    decide: (c) => {
      const command = (c.arguments as { command: string }).command;
      return { rewrite: { arguments: { command: map(command) }, reason: `${name} wrapped it` } };
    },
  };
}
const verdict = (
  name: string,
  outcome: "allow" | "deny" | "ask",
  reason?: string,
): HookListener => ({
  name,
  decide: () => ({ outcome, ...(reason ? { reason } : {}) }),
});

describe("deciding a call", () => {
  it("with no opinion anywhere the call runs as sent, by default", async () => {
    assert.deepEqual(await compose([]), {
      decision: { outcome: "allow", by: "default" },
      arguments: call.arguments,
      parsed: call.arguments,
      notices: [],
      context: [],
    });
  });

  it("two rewrites chain in registration order, each seeing the previous result", async () => {
    const seen: JsonValue[] = [];
    const spy: HookListener = {
      name: "plugin:spy",
      decide: (c) => void seen.push(c.arguments),
    };
    const result = await compose([
      rewriter("plugin:timeout", (c) => `timeout 60 ${c}`),
      spy,
      rewriter("hook:./nice.sh", (c) => `nice ${c}`),
    ]);
    assert.deepEqual(seen, [{ command: "timeout 60 npm test" }]);
    assert.deepEqual(result.arguments, { command: "nice timeout 60 npm test" });
    assert.deepEqual(result.rewrite?.originalArguments, { command: "npm test" });
    assert.equal(result.rewrite?.rewrittenBy, "plugin:timeout, hook:./nice.sh");
    assert.equal(
      result.rewrite?.rewriteReason,
      "plugin:timeout wrapped it; hook:./nice.sh wrapped it",
    );
    assert.deepEqual(result.decision, { outcome: "allow", by: "default" });
  });

  it("a rewrite then a deny: denied, recording what was rewritten", async () => {
    const result = await compose([
      rewriter("plugin:wrap", (c) => `sudo ${c}`),
      verdict("hook:./no-sudo.sh", "deny", "no sudo"),
    ]);
    assert.deepEqual(result.decision, {
      outcome: "deny",
      by: "hook",
      rule: "./no-sudo.sh",
      reason: "no sudo",
    });
    assert.deepEqual(result.arguments, { command: "sudo npm test" });
    assert.equal(result.rewrite?.rewrittenBy, "plugin:wrap");
  });

  it("an invalid rewrite denies, naming the rewriter; the original does not run instead", async () => {
    const result = await compose([
      rewriter("plugin:blank", () => ""),
      verdict("plugin:later", "allow"),
    ]);
    assert.equal(result.decision.outcome, "deny");
    assert.equal(result.decision.by, "plugin");
    assert.match(
      result.decision.reason ?? "",
      /^plugin:blank rewrote the arguments into invalid ones: /,
    );
    assert.equal(result.rewrite, undefined);
  });

  it("a rewrite equal to the current arguments is no rewrite", async () => {
    const result = await compose([rewriter("plugin:same", (c) => c)]);
    assert.equal(result.rewrite, undefined);
  });

  it("ask + allow is ask; deny beats both; ties go to the earliest", async () => {
    const asked = await compose([verdict("plugin:a", "allow"), verdict("hook:b", "ask")]);
    assert.deepEqual(asked.decision, {
      outcome: "ask",
      by: "hook",
      rule: "b",
      reason: "hook:b asks first",
    });
    const gate = () => ({ outcome: "allow" as const, by: "rule" as const, rule: "bash(npm test)" });
    const allowed = await compose([verdict("plugin:a", "allow")], { permissions: gate });
    assert.deepEqual(allowed.decision, { outcome: "allow", by: "rule", rule: "bash(npm test)" });
  });

  it("listeners get deep-frozen arguments: mutating them throws, and cannot change the call", async () => {
    const errors: unknown[] = [];
    const mutator: HookListener = {
      name: "plugin:mutator",
      decide: (c) => {
        try {
          (c.arguments as { command: string }).command = "rm -rf /";
        } catch (error) {
          errors.push(error);
          throw error;
        }
        return undefined;
      },
    };
    const result = await compose([mutator]);
    assert.ok(errors[0] instanceof TypeError, "strict mode makes the assignment throw");
    assert.deepEqual(result.arguments, { command: "npm test" });
    assert.equal(result.decision.outcome, "deny");
    assert.match(
      result.decision.reason ?? "",
      /^plugin:mutator failed: Cannot assign to read only property/,
    );
  });

  it("a listener that throws or never answers denies, naming it (fail closed)", async () => {
    const slow: HookListener = {
      name: "plugin:slow",
      timeoutMs: 50,
      decide: () => new Promise(() => {}),
    };
    const result = await compose([slow]);
    assert.deepEqual(result.decision, {
      outcome: "deny",
      by: "plugin",
      rule: "slow",
      reason: "plugin:slow did not answer within 50 ms",
    });
    assert.deepEqual(result.notices, ["plugin:slow did not answer within 50 ms"]);
  });

  it("collects notices, notes for the model and a stop request", async () => {
    const chatty: HookListener = {
      name: "hook:x",
      decide: () => ({ notice: "n", context: "c", stop: "done" }),
    };
    const result = await compose([chatty]);
    assert.deepEqual(
      [result.notices, result.context, result.stop],
      [["n"], [{ by: "hook:x", text: "c" }], { reason: "done", by: "hook:x" }],
    );
  });
});

describe("permission rules around the listeners", () => {
  const ctx: PermissionContext = { workspaceRoot: "/w", cwd: "/w", home: "/h" };
  const gateFor = (rules: { allow?: string[]; deny?: string[] }) => {
    const entries = (list: string[] = []) => list.map((text) => ({ text, source: "flag" }));
    const policy = compilePolicy({
      mode: "default",
      allow: entries(rules.allow),
      ask: [],
      deny: entries(rules.deny),
    });
    return (c: { name: string; arguments: JsonValue }) =>
      evaluatePermission(
        { ...c, tool: { readOnly: false, kind: "execute" as const } },
        policy,
        ctx,
      );
  };

  it("a deny rule on the original stops before any listener runs", async () => {
    let ran = false;
    const listener: HookListener = {
      name: "hook:h",
      decide: () => {
        ran = true;
        return undefined;
      },
    };
    const result = await compose([listener], { permissions: gateFor({ deny: ["bash(npm:*)"] }) });
    assert.equal(ran, false);
    assert.deepEqual(result.decision, {
      outcome: "deny",
      by: "rule",
      rule: "bash(npm:*)",
      reason: 'denied by the rule "bash(npm:*)"',
    });
  });

  it("wrapping a command cannot escape a deny rule, nor ride on the original's allow rule", async () => {
    const wrap = rewriter("hook:wrap", (c) => `sh -c '${c}'`);
    const denied = await compose([wrap], { permissions: gateFor({ deny: ["bash(sh:*)"] }) });
    assert.equal(denied.decision.outcome, "deny");
    const notAllowed = await compose([wrap], {
      permissions: gateFor({ allow: ["bash(npm test)"] }),
    });
    assert.equal(notAllowed.decision.outcome, "ask");
    assert.equal(notAllowed.decision.by, "mode");
  });
});

describe("asking and the rewrite note", () => {
  it("the ask sees the effective call and the original; exec denies with instructions", async () => {
    const composed = await compose([
      rewriter("hook:wrap", (c) => `nice ${c}`),
      verdict("hook:ask", "ask", "check"),
    ]);
    const ctx = { workspaceRoot: "/w", cwd: "/w", home: "/h" };
    const bus = createBus<BusEvents>();
    const granted: string[] = [];
    const asks = new PendingAsks({
      bus,
      sessionId: "s",
      context: ctx,
      grant: (rule) => granted.push(rule),
    });
    const asked = {
      turn: 0,
      signal: new AbortController().signal,
      callId: "c1",
      name: "bash",
      tool: { readOnly: false, kind: "execute" as const },
      presentation: { title: "nice npm test", kind: "execute" as const, locations: [] },
    };
    const seen: unknown[] = [];
    const stop = bus.on("agent/ask", (ask) => {
      seen.push(ask.arguments, ask.reason, ask.originalArguments, ask.rewrittenBy, ask.options);
      asks.answer(ask.id, { outcome: "allow" });
    });
    const allowed = await asks.settle(asked, composed);
    stop();
    assert.deepEqual(seen, [
      { command: "nice npm test" },
      "check",
      { command: "npm test" },
      "hook:wrap",
      ["allow_once", "deny"],
    ]);
    assert.deepEqual(allowed.decision, { outcome: "allow", by: "user", reason: "check" });
    assert.deepEqual(allowed.rewrite, composed.rewrite);
    assert.deepEqual(granted, []);
    bus.on("agent/ask", (ask) => {
      const reason = execDenialMessage(ask, ask.reason, ctx);
      asks.answer(ask.id, { outcome: "deny", by: "default", reason });
    });
    const denied = await asks.settle(asked, composed);
    assert.equal(denied.decision.outcome, "deny");
    // A hook's ask wins over any allow rule, so exec's advice names no rule or mode.
    assert.equal(
      denied.decision.reason,
      'bash needs approval (check) and exec cannot ask. The hook "ask" asked, and no mode or allow rule overrides that.',
    );
  });

  it("the note states the rewriter, the reason and the effective arguments", () => {
    assert.equal(
      rewriteNote("bash", { command: "nice npm test" }, "hook:./nice.sh", "lower priority"),
      '[codewhale] This bash call was rewritten by hook:./nice.sh (lower priority) before it ran.\nIt ran with: {"command":"nice npm test"}',
    );
  });
});

describe("real PreToolUse hooks as listeners", () => {
  it("a Claude Code hook's updatedInput and ask compose like any listener", async () => {
    const hooks = createHookDir();
    try {
      const wrap = hooks.script(
        "wrap.sh",
        echoJson({
          hookSpecificOutput: {
            hookEventName: "PreToolUse",
            permissionDecision: "ask",
            permissionDecisionReason: "wrapped",
            updatedInput: { command: "nice npm test" },
          },
        }),
      );
      const listeners = createPreToolUseListeners(
        [{ command: wrap, matcher: "Bash" }],
        hooks.runtime(),
      );
      const result = await compose(listeners);
      assert.deepEqual(result.arguments, { command: "nice npm test" });
      assert.equal(result.rewrite?.rewrittenBy, `hook:${wrap}`);
      assert.deepEqual(result.decision, {
        outcome: "ask",
        by: "hook",
        rule: wrap,
        reason: "wrapped",
      });
    } finally {
      hooks.cleanup();
    }
  });
});

// The permission prompt: each key gives the decision app.ts passes to `agent.answer`, only the
// answers the ask offers are listed, a rewritten call shows both argument sets, and a reason
// typed for a denial reaches the decision.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { AgentAsk, AskDecision } from "../../src/agent/pending-asks.ts";
import { AskPanel } from "../../src/tui/ask-panel.ts";
import { createTheme } from "../../src/tui/theme.ts";

function ask(extra: Partial<AgentAsk> = {}): AgentAsk {
  return {
    id: "a1",
    sessionId: "s1",
    turn: 0,
    callId: "c1",
    name: "bash",
    arguments: { command: "npm test" },
    tool: { kind: "execute" } as AgentAsk["tool"],
    presentation: { title: "npm test", kind: "execute", locations: [] },
    askedBy: { by: "mode" },
    reason: "default mode asks first: bash runs commands",
    options: ["allow_once", "allow_session", "deny"],
    sessionRule: "bash(npm test)",
    ...extra,
  };
}

function panelWith(request: AgentAsk) {
  const decisions: AskDecision[] = [];
  const panel = new AskPanel(request, createTheme(false), (decision) => decisions.push(decision));
  return { panel, decisions, text: () => panel.render(80).join("\n") };
}

describe("permission prompt", () => {
  it("lists what the call runs, why it asks and the session rule it would add", () => {
    const { text } = panelWith(ask());
    assert.match(text(), /Allow bash npm test\?/);
    assert.match(text(), /default mode asks first/);
    assert.match(text(), /2\. Allow for this session\s+adds bash\(npm test\)/);
  });

  it("1 allows once, 2 for the session, 3 denies; only the first key counts", () => {
    for (const [key, expected] of [
      ["1", { outcome: "allow", scope: "once" }],
      ["2", { outcome: "allow", scope: "session" }],
      ["3", { outcome: "deny" }],
    ] as const) {
      const { panel, decisions } = panelWith(ask());
      panel.handleInput(key);
      panel.handleInput("1");
      assert.deepEqual(decisions, [expected]);
    }
  });

  it("Esc denies", () => {
    const { panel, decisions } = panelWith(ask());
    panel.handleInput("\x1b");
    assert.deepEqual(decisions, [{ outcome: "deny" }]);
  });

  it("offers no session answer when the ask does not", () => {
    const { panel, decisions, text } = panelWith(ask({ options: ["allow_once", "deny"] }));
    assert.doesNotMatch(text(), /for this session/);
    panel.handleInput("2");
    assert.deepEqual(decisions, [{ outcome: "deny" }], "2 is Deny here");
  });

  it("a denial with a reason carries the typed reason", () => {
    const { panel, decisions, text } = panelWith(ask());
    panel.handleInput("4");
    assert.match(text(), /Why deny\?/);
    for (const char of "use the CI") panel.handleInput(char);
    panel.handleInput("\r");
    assert.deepEqual(decisions, [{ outcome: "deny", reason: "use the CI" }]);
  });

  it("a rewritten call shows the model's arguments and the ones that will run", () => {
    const { text } = panelWith(
      ask({
        originalArguments: { command: "npm test --force" },
        rewrittenBy: "hook:PreToolUse",
        rewriteReason: "no --force",
      }),
    );
    assert.match(text(), /↻ rewritten by hook:PreToolUse: no --force/);
    assert.match(text(), /model asked: \{"command":"npm test --force"\}/);
    assert.match(text(), /will run: \{"command":"npm test"\}/);
  });
});

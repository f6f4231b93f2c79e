// The permission prompt: each key gives the decision app.ts passes to `agent.answer`, only the
// answers the ask offers are listed, a rewritten call shows both argument sets, and a reason
// typed for a denial reaches the decision.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { AgentAsk, AskDecision } from "../../src/agent/pending-asks.ts";
import type { RuleTarget } from "../../src/config/index.ts";
import { type AlwaysAllow, AskPanel } from "../../src/tui/ask-panel.ts";
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

const targets: RuleTarget[] = [
  { kind: "user", path: "/home/u/.codewhale/config.toml", note: "applies in every project" },
  { kind: "project", path: "/p/.codewhale/config.toml", note: "the project is not trusted" },
];

function panelWith(request: AgentAsk, offered: RuleTarget[] = [], rows = 24) {
  const decisions: AskDecision[] = [];
  const always: AlwaysAllow[] = [];
  const panel = new AskPanel(
    request,
    createTheme(false),
    (decision, chosen) => {
      decisions.push(decision);
      if (chosen) always.push(chosen);
    },
    offered,
    () => rows,
  );
  return { panel, decisions, always, text: () => panel.render(80).join("\n") };
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
    assert.match(text(), /will run:\n\s+│ npm test\n/);
  });

  it("always allow: picks the file, shows what trust means, writes only once confirmed", () => {
    const { panel, decisions, always, text } = panelWith(ask(), targets);
    assert.match(text(), /3\. Always allow…/);
    assert.match(text(), /5\. Deny, and tell the model why/);
    panel.handleInput("3");
    assert.match(text(), /Always allow bash\(npm test\): write it to/);
    panel.handleInput("2");
    assert.match(
      text(),
      /Add "bash\(npm test\)" to \[permissions\] allow in \/p\/\.codewhale\/config\.toml\?/,
    );
    assert.match(text(), /the project is not trusted/);
    assert.deepEqual(decisions, [], "nothing decided before confirming");
    panel.handleInput("\r");
    assert.deepEqual(decisions, [{ outcome: "allow", scope: "session" }]);
    assert.deepEqual(always, [{ target: targets[1], rule: "bash(npm test)" }]);
  });

  it("offers no always allow where no allow rule would hold", () => {
    const { text } = panelWith(
      ask({ options: ["allow_once", "deny"], sessionRule: undefined }),
      targets,
    );
    assert.doesNotMatch(text(), /Always allow/);
  });

  it("an edit shows all it writes, scrolled with PgDn/PgUp in a short terminal; a protected one says so", () => {
    const content = Array.from({ length: 40 }, (_, i) => `line ${i + 1}`).join("\n");
    const write = {
      name: "write",
      arguments: { path: "notes.txt", content },
      tool: { kind: "edit" } as AgentAsk["tool"],
      presentation: { title: "write notes.txt", kind: "edit" as const, locations: [] },
    };
    const { panel, text } = panelWith(ask(write));
    assert.match(text(), /it will write notes\.txt:/);
    assert.match(text(), /line 1$/m);
    assert.doesNotMatch(text(), /line 40$/m);
    assert.match(text(), /rows 1–\d+ of 42, \d+ more below · PgDn\/PgUp scroll/);
    for (let page = 0; page < 10 && !text().includes("the end"); page++)
      panel.handleInput("\x1b[6~");
    assert.match(text(), /line 40$/m);
    assert.doesNotMatch(text(), /line 1$/m);
    panel.handleInput("\x1b[5~");
    assert.doesNotMatch(text(), /the end/);
    const tall = panelWith(ask(write), [], 80).text();
    assert.match(tall, /line 1$/m);
    assert.match(tall, /line 40$/m);
    assert.doesNotMatch(tall, /rows \d|more/);
    const guarded = panelWith(
      ask({ ...write, arguments: { path: ".git/config", content }, protectedFile: true }),
      [],
      80,
    ).text();
    assert.match(guarded, /protected file \.git\/config: all it will write is shown/);
    assert.match(guarded, /line 40$/m);
    const edit = panelWith(
      ask({
        ...write,
        name: "edit",
        arguments: {
          path: ".git/config",
          old_string: "a = 1",
          new_string: "a = 2",
          replace_all: true,
        },
        protectedFile: true,
      }),
    ).text();
    assert.match(edit, /^\s+-a = 1$/m);
    assert.match(edit, /^\s+\+a = 2$/m);
    assert.match(edit, /"replace_all": true/, "an edit's other arguments are shown too");
  });
});

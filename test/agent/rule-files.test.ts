// Rule files (docs/instructions.md#rules): `.claude/rules` and `.codewhale/rules` of the project
// and `$CODEWHALE_HOME/rules`; a rule without `paths:` is in every request's system prompt, one
// with `paths:` follows the result of the first call on a matching file, once per session, and
// a resumed session knows from its log which ones it already delivered.
import assert from "node:assert/strict";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, it } from "node:test";
import { loadRuleFiles } from "../../src/config/index.ts";
import type { EventOf, SessionEvent } from "../../src/session/events.ts";
import { markRepository } from "../support/git-marker.ts";
import { tempDir } from "../support/session-fixtures.ts";
import { openHarness, scripted } from "./scripted.ts";

function write(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

function setup() {
  const home = tempDir("cw-rules-home-");
  const workspace = tempDir("cw-rules-ws-");
  markRepository(workspace);
  write(join(workspace, ".claude", "rules", "general.md"), "Answer in British English.");
  write(
    join(workspace, ".claude", "rules", "lang", "typescript.md"),
    '---\npaths:\n  - "src/**/*.{ts,tsx}"\n---\nUse strict TypeScript; never `any`.',
  );
  write(
    join(workspace, ".codewhale", "rules", "docs.md"),
    "---\npaths: docs/**, *.md\n---\nWrap prose at 100 columns.",
  );
  write(join(home, "rules", "mine.md"), "Sign commits.");
  write(join(workspace, "src", "app.ts"), "export const a = 1;\n");
  write(join(workspace, "src", "b.ts"), "export const b = 2;\n");
  write(join(workspace, "lib", "c.js"), "c\n");
  const outside = tempDir("cw-rules-outside-");
  write(join(outside, "leak.md"), "SECRET-OUTSIDE");
  symlinkSync(join(outside, "leak.md"), join(workspace, ".claude", "rules", "leak.md"));
  return { home, workspace };
}

const results = (events: SessionEvent[]) =>
  events.filter((e): e is EventOf<"tool/result"> => e.type === "tool/result");

const read = (path: string, id: string) => ({ id, name: "read", args: { path } });

describe("rule files", () => {
  it("puts rules without paths in the system prompt and names a rule linked out of its folder", async () => {
    const { home, workspace } = setup();
    const script = scripted({ text: "ok" });
    const h = await openHarness(script, { home, workspace, defaultTools: true });
    const notices: string[] = [];
    h.bus.on("agent/notice", ({ message }) => void notices.push(message));
    await h.agent.submit("hi");
    h.agent.dispose();
    const system = script.requests[0]?.system ?? "";
    assert.match(
      system,
      /# Instructions from .*\.claude\/rules\/general\.md\n\nAnswer in British English\./,
    );
    assert.match(system, /# Instructions from .*rules\/mine\.md\n\nSign commits\./);
    assert.doesNotMatch(
      system,
      /strict TypeScript|Wrap prose/,
      "a rule with paths waits for its files",
    );
    assert.doesNotMatch(system, /SECRET-OUTSIDE/);
  });

  it("adds a matching rule to the first call on its files only, and not again after a resume", async () => {
    const { home, workspace } = setup();
    const script = scripted(
      { calls: [read("lib/c.js", "r1"), read("src/app.ts", "r2"), read("src/b.ts", "r3")] },
      { text: "done" },
    );
    const h = await openHarness(script, { home, workspace, defaultTools: true });
    await h.agent.submit("look");
    const id = h.agent.sessionId;
    h.agent.dispose();
    const [c, app, b] = results(h.events);
    assert.doesNotMatch(c?.content ?? "", /Instructions from/);
    assert.match(
      app?.content ?? "",
      /export const a = 1;[\s\S]*\n\n# Instructions from .*lang\/typescript\.md \(for files matching src\/\*\*\/\*\.\{ts,tsx\}\)\n\nUse strict TypeScript; never `any`\.$/,
    );
    assert.doesNotMatch(b?.content ?? "", /Instructions from/, "once per session");
    // The model saw the rule in the history it was sent next.
    assert.match(JSON.stringify(script.requests[1]?.messages), /Use strict TypeScript/);

    const again = scripted(
      { calls: [read("src/b.ts", "r4"), read("README.md", "r5")] },
      { text: "ok" },
    );
    write(join(workspace, "README.md"), "# readme\n");
    const resumed = await openHarness(again, { home, workspace, defaultTools: true, resume: id });
    await resumed.agent.submit("more");
    resumed.agent.dispose();
    const [b2, readme] = results(resumed.events).slice(-2);
    assert.doesNotMatch(b2?.content ?? "", /Instructions from/, "the log says it was delivered");
    assert.match(
      readme?.content ?? "",
      /# Instructions from .*docs\.md \(for files matching docs\/\*\*, \*\.md\)\n\nWrap prose at 100 columns\.$/,
    );
  });
});

describe("a rule file's paths", () => {
  it("reads a YAML list, a bracket list and a comma-separated line, keeping braces whole", () => {
    const home = tempDir("cw-rules-home-");
    const texts = [
      '---\npaths:\n  - "a/**"\n  - b/*.ts\n---\nx',
      "---\npaths: [a/**, 'c/{d,e}.ts']\n---\nx",
      "---\npaths: src/*.{js,ts}, lib/**\n---\nbody",
      "---\ndescription: x\n---\nbody",
      "no front matter",
    ];
    for (const [n, text] of texts.entries()) write(join(home, "rules", `${n}.md`), text);
    const { rules } = loadRuleFiles({ home, userHome: undefined, project: tempDir() });
    assert.deepEqual(
      rules.map(({ paths, text }) => ({ paths, text })),
      [
        { paths: ["a/**", "b/*.ts"], text: "x" },
        { paths: ["a/**", "c/{d,e}.ts"], text: "x" },
        { paths: ["src/*.{js,ts}", "lib/**"], text: "body" },
        { paths: null, text: "body" },
        { paths: null, text: "no front matter" },
      ],
    );
  });
});

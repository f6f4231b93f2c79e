// Skills (docs/instructions.md#skills): SKILL.md directories of the user and, in a trusted
// project, of the repository are offered by name and description in the `skill` tool; a call
// returns the instructions and the files beside them, and a repository's skills stay out of
// an untrusted project.
import assert from "node:assert/strict";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, it } from "node:test";
import type { BusEvents } from "../../src/agent/bus-events.ts";
import { createBus } from "../../src/bus/bus.ts";
import { loadConfig } from "../../src/config/index.ts";
import type { EventOf, SessionEvent } from "../../src/session/events.ts";
import { tempDir } from "../support/session-fixtures.ts";
import { openHarness, scripted } from "./scripted.ts";

function write(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

function setup() {
  const home = tempDir("cw-skills-home-");
  const workspace = tempDir("cw-skills-ws-");
  write(
    join(home, "skills", "pdf", "SKILL.md"),
    "---\nname: pdf\ndescription: Fill in PDF forms\n---\nUse scripts/fill.py on the form.",
  );
  write(join(home, "skills", "pdf", "forms.md"), "field list");
  write(join(home, "skills", "pdf", "scripts", "fill.py"), "print('x')");
  write(
    join(workspace, ".claude", "skills", "lint", "SKILL.md"),
    "---\nname: lint\ndescription: Lint this repo\n---\nRun the linter.",
  );
  write(join(workspace, ".codewhale", "config.toml"), "");
  const outside = tempDir("cw-skills-outside-");
  write(join(outside, "SKILL.md"), "---\nname: sneaky\ndescription: from outside\n---\nsecret");
  mkdirSync(join(workspace, ".agents", "skills"), { recursive: true });
  symlinkSync(outside, join(workspace, ".agents", "skills", "sneaky"), "dir");
  return { home, workspace };
}

const results = (events: SessionEvent[]) =>
  events.filter((e): e is EventOf<"tool/result"> => e.type === "tool/result");

async function run(trust: boolean, calls: { name: string }[]) {
  const { home, workspace } = setup();
  const env = { CODEWHALE_HOME: home, ANTHROPIC_API_KEY: "sk-ant-api03-test" };
  const loaded = loadConfig({ cwd: workspace, env, trust });
  const script = scripted(
    { calls: calls.map((args, n) => ({ id: `s${n}`, name: "skill", args })) },
    { text: "done" },
  );
  const notices: string[] = [];
  const events: SessionEvent[] = [];
  const bus = createBus<BusEvents>();
  bus.on("agent/notice", ({ message }) => void notices.push(message));
  bus.on("session/event", (event) => void events.push(event));
  const h = await openHarness(script, { home, workspace, loaded, bus, defaultTools: true });
  await h.agent.submit("go");
  h.agent.dispose();
  const tool = script.requests[0]?.tools.find((t) => t.name === "skill");
  return { tool, results: results(events), notices, home };
}

describe("skills", () => {
  it("lists the user's skills in the skill tool and returns one's instructions and files", async () => {
    const { tool, results: got } = await run(false, [{ name: "pdf" }]);
    assert.match(tool?.description ?? "", /^- pdf: Fill in PDF forms$/m);
    assert.doesNotMatch(tool?.description ?? "", /lint|sneaky/, "a repository's skills need trust");
    const content = got[0]?.content ?? "";
    assert.equal(got[0]?.is_error, false);
    assert.match(
      content,
      /^Skill "pdf" \(.*skills\/pdf\/SKILL\.md\)\. Its other files, under .*skills\/pdf:\n- forms\.md\n- scripts\/fill\.py\n\nUse scripts\/fill\.py on the form\.$/,
    );
  });

  it("adds a trusted project's skills, never one linked from outside it", async () => {
    const { tool, results: got, notices } = await run(true, [{ name: "lint" }, { name: "nope" }]);
    assert.ok(
      notices.some((n) =>
        /skill ignored: .*sneaky\/SKILL\.md: a symlink out of its directory/.test(n),
      ),
      notices.join("\n"),
    );
    assert.match(tool?.description ?? "", /^- lint: Lint this repo$/m);
    assert.doesNotMatch(tool?.description ?? "", /sneaky/);
    assert.match(got[0]?.content ?? "", /Run the linter\.$/);
    assert.equal(got[1]?.is_error, true);
    assert.equal(got[1]?.content, 'no skill named "nope" (skills: pdf, lint)');
  });
});

// Files named like a git directory's own, through `codewhale exec` as a child process with the
// real write tool and the loopback mock provider, in accept-edits: `config` in any folder, a hook
// git runs in any folder named hooks, git's recognition names, and objects/ or refs/ beside a
// config or HEAD are refused and never written; ordinary code named alike is written unasked.
import assert from "node:assert/strict";
import { mkdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import type { EventOf, SessionEvent } from "../../src/session/events.ts";
import { readSession } from "../../src/session/reader.ts";
import { execEnv, jsonLines, MODEL_OF, runExec } from "../support/exec-harness.ts";
import type { ScriptBlock } from "../support/mock-provider/index.ts";
import { useMockProvider } from "../support/mock-provider/index.ts";

const mock = useMockProvider({ each: true });
const ARGS = [
  "--model",
  MODEL_OF.anthropic,
  "--output-format",
  "stream-json",
  "--permission-mode",
  "accept-edits",
];

const REFUSED = [
  "config",
  "vendor/evil/config",
  "lib/CONFIG",
  "hooks/pre-commit",
  "vendor/x/hooks/post-checkout",
  "tools/Hooks/fsmonitor-watchman",
  "a/hooks/update",
  "a/HEAD",
  "p/packed-refs",
  "c/.git",
  "store/objects/info/packs",
  "store/refs/heads/main",
  "bare/refs/heads/main",
];

const ORDINARY = [
  "src/hooks/useThing.ts",
  "src/hooks/pre-commit.ts",
  "hooks/README.md",
  "config/routes.rb",
  "src/config.ts",
  "config.json",
  "objects/x.js",
  "lib/refs/heads.ts",
  "src/update",
];

function writes(paths: readonly string[]): void {
  for (const [index, path] of paths.entries()) {
    const block: ScriptBlock = {
      kind: "tool",
      id: `toolu_${index + 1}`,
      name: "write",
      input: { path, content: "[core]\n\tfsmonitor = touch PWNED\n" },
    };
    mock.enqueue({ blocks: [block] });
  }
  mock.enqueue({ blocks: [{ kind: "text", text: "done" }] });
}

function calls(stdout: string): EventOf<"tool/call">[] {
  const init = jsonLines(stdout)[0];
  assert.ok(init, "stream-json starts with the init line");
  const events: SessionEvent[] = readSession(String(init.log_path)).events;
  return events.filter((e): e is EventOf<"tool/call"> => e.type === "tool/call");
}

describe("codewhale exec: files named like a git directory's own", () => {
  it("config, git's hooks in a hooks folder, git's names and objects/ or refs/ beside a config or HEAD are refused; code named alike is written", async () => {
    const setup = execEnv(mock);
    mkdirSync(join(setup.workspace, "store"));
    writeFileSync(join(setup.workspace, "store", "config"), "[core]\n");
    mkdirSync(join(setup.workspace, "bare"));
    writeFileSync(join(setup.workspace, "bare", "HEAD"), "ref: refs/heads/main\n");
    writes([...REFUSED, ...ORDINARY]);
    const run = await runExec([...ARGS, "set things up"], setup);
    assert.equal(run.status, 0, run.stderr);
    const decisions = calls(run.stdout).map((call) => call.decision);
    const outcomes = decisions.map((decision, index) => [
      [...REFUSED, ...ORDINARY][index],
      decision.outcome,
    ]);
    assert.deepEqual(outcomes, [
      ...REFUSED.map((path) => [path, "deny"]),
      ...ORDINARY.map((path) => [path, "allow"]),
    ]);
    for (const decision of decisions.slice(0, REFUSED.length)) {
      assert.match(decision.reason ?? "", /is protected/);
    }
    assert.match(decisions[0]?.reason ?? "", /config: named like a git directory's config/);
    assert.match(decisions[3]?.reason ?? "", /hooks\/pre-commit: named like a git hook/);
    const isFile = (path: string) =>
      statSync(join(setup.workspace, path), { throwIfNoEntry: false })?.isFile() === true;
    for (const path of REFUSED) assert.equal(isFile(path), false, path);
    for (const path of ORDINARY) assert.equal(isFile(path), true, path);
  });
});

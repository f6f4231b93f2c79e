// Files that run code when something else opens them, through `codewhale exec` as a child
// process with the real tools and the loopback mock provider, in accept-edits: editor, CI,
// commit-hook, package-manager and environment files are refused; so is the workspace script a
// configured PostToolUse hook runs right after the write (which would otherwise run the model's
// code unasked) and the folder of git's core.hooksPath; `permissions.unprotect` in the user file
// lets a built-in entry go, and a project file may not set it.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
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
const PAYLOAD = 'require("node:fs").writeFileSync("PWNED", "");\n';

function writes(paths: readonly string[], content = "x"): void {
  for (const [index, path] of paths.entries()) {
    const block: ScriptBlock = {
      kind: "tool",
      id: `toolu_${index + 1}`,
      name: "write",
      input: { path, content },
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

/** An exec environment whose HOME is a temp dir too (git's user config is read from it). */
function setupWith(extraToml = "") {
  const setup = execEnv(mock, extraToml);
  const home = mkdtempSync(join(tmpdir(), "cw-exec-userhome-"));
  return { ...setup, env: { ...setup.env, HOME: home, XDG_CONFIG_HOME: join(home, ".config") } };
}

describe("codewhale exec: files that run code when something else opens them", () => {
  it("editor, CI, commit-hook, install and environment files are refused in accept-edits", async () => {
    const setup = setupWith();
    const targets = [
      ".vscode/settings.json",
      ".vscode/launch.json",
      ".devcontainer/devcontainer.json",
      ".github/workflows/ci.yml",
      ".gitlab-ci.yml",
      ".pre-commit-config.yaml",
      ".husky/pre-commit",
      ".npmrc",
      ".gitattributes",
      ".env",
      "app.code-workspace",
      ".idea/runConfigurations/x.xml",
      "node_modules/.bin/prettier",
      "src/app.ts",
    ];
    writes(targets);
    const run = await runExec([...ARGS, "set things up"], setup);
    assert.equal(run.status, 0, run.stderr);
    const outcomes = calls(run.stdout).map((call) => call.decision.outcome);
    assert.deepEqual(outcomes, [...targets.slice(0, -1).map(() => "deny"), "allow"]);
    for (const path of targets.slice(0, -1)) {
      assert.equal(existsSync(join(setup.workspace, path)), false, path);
    }
  });

  it("the script a configured PostToolUse hook runs is refused, so the hook never runs the model's code", async () => {
    const hook = '[[hooks.PostToolUse]]\ncommand = "node scripts/fmt.mjs && make -s lint"';
    const setup = setupWith(hook);
    mkdirSync(join(setup.workspace, "scripts"));
    writeFileSync(join(setup.workspace, "scripts", "fmt.mjs"), "// formats\n");
    writeFileSync(join(setup.workspace, "Makefile"), "lint:\n\t@true\n");
    writes(["scripts/fmt.mjs", "Makefile", "notes.md"], PAYLOAD);
    const run = await runExec([...ARGS, "format"], setup);
    assert.equal(run.status, 0, run.stderr);
    const decisions = calls(run.stdout).map((call) => call.decision);
    assert.deepEqual(
      decisions.map((decision) => decision.outcome),
      ["deny", "deny", "allow"],
    );
    assert.match(decisions[0]?.reason ?? "", /run by the PostToolUse hook "node scripts\/fmt.mjs/);
    assert.equal(readFileSync(join(setup.workspace, "scripts", "fmt.mjs"), "utf8"), "// formats\n");
    assert.equal(existsSync(join(setup.workspace, "PWNED")), false, "the hook ran no model code");
  });

  it("the folder of git's configured core.hooksPath is protected", async () => {
    const setup = setupWith();
    const init = spawnSync("git", ["init", "-q", setup.workspace], { encoding: "utf8" });
    assert.equal(init.status, 0, init.stderr);
    const config = spawnSync("git", [
      "-C",
      setup.workspace,
      "config",
      "core.hooksPath",
      "tools/git-hooks",
    ]);
    assert.equal(config.status, 0);
    writes(["tools/git-hooks/pre-commit", "tools/build.sh"]);
    const run = await runExec([...ARGS, "add a hook"], setup);
    assert.equal(run.status, 0, run.stderr);
    const decisions = calls(run.stdout).map((call) => call.decision);
    assert.deepEqual(
      decisions.map((decision) => decision.outcome),
      ["deny", "allow"],
    );
    assert.match(decisions[0]?.reason ?? "", /run by git's core.hooksPath/);
  });

  it("permissions.unprotect in the user file lets a built-in entry go, never .git", async () => {
    const setup = setupWith('[permissions]\nunprotect = [".env", ".git"]');
    writes([".env", ".git/config"]);
    const run = await runExec([...ARGS, "configure"], setup);
    assert.equal(run.status, 0, run.stderr);
    const outcomes = calls(run.stdout).map((call) => call.decision.outcome);
    assert.deepEqual(outcomes, ["allow", "deny"]);
  });

  it("a project file may not set permissions.unprotect: one line, exit 2", async () => {
    const setup = setupWith();
    const file = join(setup.workspace, ".codewhale", "config.toml");
    mkdirSync(join(setup.workspace, ".codewhale"));
    writeFileSync(file, '[permissions]\nunprotect = [".env"]\n');
    const run = await runExec([...ARGS, "hi"], setup);
    assert.equal(run.status, 2);
    assert.equal(
      run.stderr.trim(),
      `codewhale: ${file}:2: key "permissions.unprotect": only allowed in the user config file`,
    );
  });
});

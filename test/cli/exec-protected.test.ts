// Files that give control, through `codewhale exec` as a child process with the real tools and
// the loopback mock provider: the probe's reproduction (accept-edits, `--allow 'bash(git
// status:*)'`, an fsmonitor written into .git/config, then git status) runs no command; only
// bypass lets such an edit through, as the denial says; the user's `protected_paths` extend the
// list and a project file may not set it; a hard-linked file is outside the workspace for edits.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, linkSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import type { EventOf, SessionEvent } from "../../src/session/events.ts";
import { readSession } from "../../src/session/reader.ts";
import { execEnv, jsonLines, MODEL_OF, runExec } from "../support/exec-harness.ts";
import type { ScriptBlock } from "../support/mock-provider/index.ts";
import { useMockProvider } from "../support/mock-provider/index.ts";

const mock = useMockProvider({ each: true });
const BASE = ["--model", MODEL_OF.anthropic, "--output-format", "stream-json"];
const FSMONITOR = '[core]\n\tfsmonitor = "touch PWNED; echo"';

/** One reply calling each tool in turn, then a closing text reply. */
function calls(...tools: Array<[string, Record<string, unknown>]>): void {
  for (const [index, [name, input]] of tools.entries()) {
    const block: ScriptBlock = { kind: "tool", id: `toolu_${index + 1}`, name, input };
    mock.enqueue({ blocks: [block] });
  }
  mock.enqueue({ blocks: [{ kind: "text", text: "done" }] });
}

function logOf(stdout: string): SessionEvent[] {
  const init = jsonLines(stdout)[0];
  assert.ok(init, "stream-json starts with the init line");
  return readSession(String(init.log_path)).events;
}

function all<T extends SessionEvent["type"]>(events: SessionEvent[], type: T): EventOf<T>[] {
  return events.filter((e): e is EventOf<T> => e.type === type);
}

function gitRepo(dir: string): void {
  const init = spawnSync("git", ["init", "-q", dir], { encoding: "utf8" });
  assert.equal(init.status, 0, init.stderr);
}

describe("codewhale exec: protected files", () => {
  it("accept-edits with --allow 'bash(git status:*)': writing an fsmonitor into .git/config is refused, and git status runs nothing", async () => {
    const setup = execEnv(mock);
    gitRepo(setup.workspace);
    mkdirSync(join(setup.workspace, "sub"));
    const config = join(setup.workspace, ".git", "config");
    const before = readFileSync(config, "utf8");
    calls(
      ["edit", { path: ".git/config", old_string: "[core]", new_string: FSMONITOR }],
      ["write", { path: "sub/../.git/config", content: `${FSMONITOR}\n` }],
      ["write", { path: `${setup.workspace}/./.git/hooks/pre-commit`, content: "touch PWNED\n" }],
      ["bash", { command: "git status" }],
    );
    const args = [...BASE, "--permission-mode", "accept-edits", "--allow", "bash(git status:*)"];
    const run = await runExec([...args, "make git status faster"], setup);
    assert.equal(run.status, 0, run.stderr);
    const events = logOf(run.stdout);
    const decisions = all(events, "tool/call").map((c) => [c.name, c.decision.outcome]);
    assert.deepEqual(decisions, [
      ["edit", "deny"],
      ["write", "deny"],
      ["write", "deny"],
      ["bash", "allow"],
    ]);
    const results = all(events, "tool/result");
    assert.equal(
      results[0]?.content,
      `edit needs approval (${join(setup.workspace, ".git/config")} is protected (.git: git runs its config, hooks and filters on status, commit and checkout); editing it asks in every mode but bypass, whatever the allow rules say) and exec cannot ask. To allow it: run with --permission-mode bypass (allow rules and accept-edits do not apply to protected files).`,
    );
    assert.match(results[3]?.content ?? "", /On branch|No commits yet/, "git status ran");
    assert.equal(readFileSync(config, "utf8"), before, ".git/config is unchanged");
    assert.equal(existsSync(join(setup.workspace, ".git", "hooks", "pre-commit")), false);
    assert.equal(existsSync(join(setup.workspace, "PWNED")), false, "no command ran");
  });

  it("the advice is true: with --permission-mode bypass the same edit goes through", async () => {
    const setup = execEnv(mock);
    gitRepo(setup.workspace);
    calls(["edit", { path: ".git/config", old_string: "[core]", new_string: "[core]\n\tx = 1" }]);
    const run = await runExec([...BASE, "--permission-mode", "bypass", "edit it"], setup);
    assert.equal(run.status, 0, run.stderr);
    const [call] = all(logOf(run.stdout), "tool/call");
    assert.deepEqual(call?.decision, { outcome: "allow", by: "mode", rule: "bypass" });
    assert.match(readFileSync(join(setup.workspace, ".git", "config"), "utf8"), /x = 1/);
  });

  it("every listed file asks, whatever the allow rules say; the user's protected_paths add to the list", async () => {
    const setup = execEnv(mock);
    const userFile = join(setup.home, "config.toml");
    writeFileSync(userFile, `protected_paths = ["deploy/*.sh"]\n${readFileSync(userFile, "utf8")}`);
    const targets = [
      ".codewhale/config.toml",
      ".claude/settings.json",
      ".mcp.json",
      ".gitmodules",
      ".envrc",
      ".vscode/tasks.json",
      "deploy/release.sh",
    ];
    calls(
      ...targets.map((path): [string, Record<string, unknown>] => [
        "write",
        { path, content: "x" },
      ]),
    );
    const args = [
      ...BASE,
      "--permission-mode",
      "accept-edits",
      "--allow",
      "write",
      "--allow",
      "edit",
    ];
    const run = await runExec([...args, "configure"], setup);
    assert.equal(run.status, 0, run.stderr);
    const events = logOf(run.stdout);
    assert.deepEqual(
      all(events, "tool/call").map((c) => c.decision.outcome),
      targets.map(() => "deny"),
    );
    for (const result of all(events, "tool/result")) {
      assert.match(result.content, /is protected .*--permission-mode bypass/);
    }
    for (const path of targets) assert.equal(existsSync(join(setup.workspace, path)), false, path);
  });

  it("a project file may not set protected_paths: one line, exit 2", async () => {
    const setup = execEnv(mock);
    mkdirSync(join(setup.workspace, ".codewhale"));
    writeFileSync(join(setup.workspace, ".codewhale", "config.toml"), "protected_paths = []\n");
    const run = await runExec([...BASE, "hi"], setup);
    assert.equal(run.status, 2);
    assert.equal(
      run.stderr.trim(),
      `codewhale: ${join(setup.workspace, ".codewhale", "config.toml")}:1: key "protected_paths": only allowed in the user config file`,
    );
  });

  it("an edit of a file with a hard link outside the workspace leaves the outside file unchanged, even in bypass", async () => {
    const setup = execEnv(mock);
    const outside = mkdtempSync(join(tmpdir(), "cw-outside-"));
    const victim = join(outside, "victim.txt");
    writeFileSync(victim, "original\n");
    linkSync(victim, join(setup.workspace, "notes.txt"));
    calls(
      ["edit", { path: "notes.txt", old_string: "original", new_string: "PWNED" }],
      ["write", { path: "notes.txt", content: "PWNED\n" }],
    );
    const run = await runExec([...BASE, "--permission-mode", "bypass", "edit notes"], setup);
    assert.equal(run.status, 0, run.stderr);
    const events = logOf(run.stdout);
    assert.deepEqual(
      all(events, "tool/call").map((c) => c.decision.outcome),
      ["deny", "deny"],
    );
    assert.match(all(events, "tool/result")[0]?.content ?? "", /has 2 hard links/);
    assert.equal(readFileSync(victim, "utf8"), "original\n");
  });
});

// Protected files, hard links and exec's advice, decided by the permission layer over a real
// temp tree: every listed file asks in default and accept-edits whatever the allow rules say,
// however the path is spelled (`./`, `..`, absolute, case, a symlink into .git, dangling or
// not, the real git directory of a submodule's `.git` file, the codewhale home), bypass lets it
// through; a hard-linked file is outside for edits; each denial names only what would work.
import assert from "node:assert/strict";
import {
  linkSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import type { PermissionMode } from "../../src/config/index.ts";
import type { AskCall, PermissionCall, PermissionContext } from "../../src/permissions/index.ts";
import {
  compilePolicy,
  evaluatePermission,
  execDenialMessage,
  PROTECTED_PATHS,
  sessionGrantRule,
} from "../../src/permissions/index.ts";

const root = realpathSync(mkdtempSync(join(tmpdir(), "codewhale-protect-")));
after(() => rmSync(root, { recursive: true, force: true }));
const ws = join(root, "ws");
mkdirSync(join(ws, ".git", "hooks"), { recursive: true });
mkdirSync(join(ws, "src"));
writeFileSync(join(ws, ".git", "config"), "[core]\n");
const ctx: PermissionContext = {
  workspaceRoot: ws,
  cwd: ws,
  home: join(root, "home"),
  configHome: join(ws, ".cw-home"),
  protect: ["deploy/*.sh"],
};

const write = (path: string): PermissionCall => ({
  name: "write",
  arguments: { path, content: "x" },
  tool: { readOnly: false, kind: "edit" },
});
const edit = (path: string): PermissionCall => ({
  name: "edit",
  arguments: { path, old_string: "a", new_string: "b" },
  tool: { readOnly: false, kind: "edit" },
});

function decide(
  call: PermissionCall,
  mode: PermissionMode,
  lists: { allow?: string[]; ask?: string[]; deny?: string[] } = {},
) {
  const entries = (list: string[] = []) => list.map((text) => ({ text, source: "flag" }));
  const policy = compilePolicy({
    mode,
    allow: entries(lists.allow),
    ask: entries(lists.ask),
    deny: entries(lists.deny),
  });
  return evaluatePermission(call, policy, ctx);
}

const EVERYTHING = { allow: ["write", "edit", "edit(**)", "write(.git/**)"] };

describe("protected files", () => {
  it("every built-in entry asks in default and accept-edits whatever the allow rules say, and runs in bypass", () => {
    const samples = [".git/config", ".git/hooks/pre-commit", ...PROTECTED_PATHS.slice(1)];
    for (const path of [...samples, "sub/.codewhale/config.toml", ".claude/settings.json"]) {
      for (const mode of ["default", "accept-edits"] as const) {
        const decision = decide(write(path), mode, EVERYTHING);
        assert.equal(decision.outcome, "ask", `${path} in ${mode}`);
        assert.match(decision.reason ?? "", /is protected .* asks in every mode but bypass/);
      }
      assert.equal(decide(edit(path), "bypass", EVERYTHING).outcome, "allow", path);
    }
    assert.equal(decide(write(".git/config"), "plan", EVERYTHING).outcome, "deny");
  });

  it("however the path is spelled: ./, .., absolute, another case", () => {
    for (const path of [
      "./.git/config",
      "src/../.git/config",
      join(ws, ".git/config"),
      ".GIT/Config",
      "./.Git/hooks/x",
    ]) {
      assert.equal(decide(write(path), "accept-edits", EVERYTHING).outcome, "ask", path);
    }
  });

  it("through a symlink into .git, existing or dangling", () => {
    symlinkSync(".git", join(ws, "g"));
    symlinkSync(".git/hooks/post-checkout", join(ws, "pc"));
    assert.equal(decide(write("g/config"), "accept-edits", EVERYTHING).outcome, "ask");
    const dangling = decide(write("pc"), "accept-edits", EVERYTHING);
    assert.equal(dangling.outcome, "ask");
    assert.match(dangling.reason ?? "", /post-checkout is protected/);
  });

  it("the real git directory a submodule's .git file points to, whatever it is called", () => {
    mkdirSync(join(ws, "mod"));
    writeFileSync(join(ws, "mod", ".git"), "gitdir: ../store\n");
    mkdirSync(join(ws, "store", "objects"), { recursive: true });
    writeFileSync(join(ws, "store", "HEAD"), "ref: refs/heads/main\n");
    for (const path of ["store/config", "store/hooks/pre-commit", "mod/.git"]) {
      assert.equal(decide(write(path), "accept-edits", EVERYTHING).outcome, "ask", path);
    }
    // A worktree's git directory has a commondir file instead of objects/.
    mkdirSync(join(ws, "wt-git"));
    writeFileSync(join(ws, "wt-git", "HEAD"), "ref: refs/heads/x\n");
    writeFileSync(join(ws, "wt-git", "commondir"), "../store\n");
    assert.equal(decide(write("wt-git/config.worktree"), "accept-edits").outcome, "ask");
  });

  it("the codewhale home (and what its symlinks lead to) and the user's protected_paths", () => {
    assert.match(
      decide(write(".cw-home/config.toml"), "accept-edits").reason ?? "",
      /codewhale home/,
    );
    // A home whose config.toml is a link into a dotfiles checkout in the workspace.
    mkdirSync(join(ws, "dotfiles"));
    writeFileSync(join(ws, "dotfiles", "codewhale.toml"), "");
    mkdirSync(join(ws, ".cw-home"));
    symlinkSync(join(ws, "dotfiles", "codewhale.toml"), join(ws, ".cw-home", "config.toml"));
    const linked = decide(write("dotfiles/codewhale.toml"), "accept-edits");
    assert.match(linked.reason ?? "", /codewhale home/);
    assert.equal(decide(write("dotfiles/other.toml"), "accept-edits").outcome, "allow");
    assert.match(
      decide(write("deploy/release.sh"), "accept-edits").reason ?? "",
      /protected_paths "deploy\/\*\.sh"/,
    );
    assert.equal(decide(write("deploy/notes.md"), "accept-edits").outcome, "allow");
  });

  it("look-alikes are ordinary files", () => {
    for (const path of [
      "src/git/config.ts",
      ".gitignore",
      ".github/ISSUE_TEMPLATE/bug.md",
      "docs/.envrc.md",
      ".env-notes.md",
      "vscode/tasks.json",
    ]) {
      assert.equal(decide(write(path), "accept-edits").outcome, "allow", path);
    }
  });

  it("reading a protected file is not affected", () => {
    const read = {
      name: "read",
      arguments: { path: ".git/config" },
      tool: { readOnly: true, kind: "read" as const },
    };
    assert.equal(decide(read, "default").outcome, "allow");
  });
});

describe("hard links and read rules", () => {
  it("a file with a second hard link is outside the workspace for write and edit, in every mode", () => {
    const outside = join(root, "victim.txt");
    writeFileSync(outside, "original\n");
    linkSync(outside, join(ws, "src", "linked.txt"));
    for (const mode of ["default", "accept-edits", "bypass"] as const) {
      const decision = decide(edit("src/linked.txt"), mode, EVERYTHING);
      assert.equal(decision.outcome, "deny", mode);
      assert.match(decision.reason ?? "", /has 2 hard links/);
    }
    const read = {
      name: "read",
      arguments: { path: "src/linked.txt" },
      tool: { readOnly: true, kind: "read" as const },
    };
    assert.equal(decide(read, "default").outcome, "allow", "reading it is fine");
  });

  it("a read deny rule also covers edit (which reads the file); a read allow rule does not allow edits", () => {
    assert.equal(decide(edit("src/.env"), "bypass", { deny: ["read(.env)"] }).outcome, "deny");
    assert.equal(decide(edit("src/a.ts"), "default", { allow: ["read(src/**)"] }).outcome, "ask");
  });
});

describe("exec's advice names only what works", () => {
  const resolve = async (call: AskCall, reason: string) => ({
    outcome: "deny",
    reason: execDenialMessage(call, reason, ctx),
  });

  it("a protected file: only bypass", async () => {
    const decision = decide(write(".git/config"), "accept-edits", EVERYTHING);
    const answer = await resolve(write(".git/config"), decision.reason ?? "");
    assert.equal(
      answer.reason,
      `write needs approval (${decision.reason}) and exec cannot ask. To allow it: run with --permission-mode bypass (allow rules and accept-edits do not apply to protected files).`,
    );
  });

  it("allow for this session is offered only where an allow rule would hold", () => {
    const byMode = { by: "mode", rule: "default" };
    assert.equal(sessionGrantRule({ ...edit("src/a.ts"), askedBy: byMode }, ctx), "edit(src/a.ts)");
    assert.equal(sessionGrantRule({ ...write(".git/config"), askedBy: byMode }, ctx), undefined);
    for (const by of ["rule", "hook", "plugin"]) {
      const call = { ...edit("src/a.ts"), askedBy: { by, rule: "x" } };
      assert.equal(sessionGrantRule(call, ctx), undefined, `asked by ${by}`);
    }
  });

  it("an ask rule: no mode or allow rule, only removing it", async () => {
    const call = { ...write("src/a.ts"), askedBy: { by: "rule", rule: "edit(src/**)" } };
    const answer = await resolve(call, 'the rule "edit(src/**)" asks first');
    assert.match(answer.reason ?? "", /The ask rule "edit\(src\/\*\*\)" applies in every mode/);
    assert.doesNotMatch(answer.reason ?? "", /--permission-mode|--allow/);
  });

  it("an ordinary edit: accept-edits or an allow rule, each of which does allow it", async () => {
    const answer = await resolve({ ...edit("src/a.ts"), askedBy: { by: "mode" } }, "why");
    assert.match(
      answer.reason ?? "",
      /--permission-mode accept-edits, add permissions.allow = \["edit\(src\/a.ts\)"\]/,
    );
    assert.equal(decide(edit("src/a.ts"), "accept-edits").outcome, "allow");
    assert.equal(
      decide(edit("src/a.ts"), "default", { allow: ["edit(src/a.ts)"] }).outcome,
      "allow",
    );
  });
});

// Permission rules and modes, as a user writes them: prefix, exact and wildcard bash rules,
// compound commands, gitignore-style path globs with `~` and absolute paths, the workspace
// boundary, case-insensitive built-in tool names, malformed rules, each mode, and exec's ask message.
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { PermissionMode } from "../../src/config/index.ts";
import { ConfigError } from "../../src/errors.ts";
import { loadBashParser } from "../../src/permissions/bash-parser.ts";
import type { PermissionCall, PermissionContext, ToolTraits } from "../../src/permissions/index.ts";
import {
  compilePolicy,
  evaluatePermission,
  execDenialMessage,
  parseRule,
  suggestRule,
  withGrant,
} from "../../src/permissions/index.ts";

before(() => loadBashParser());

const root = realpathSync(mkdtempSync(join(tmpdir(), "codewhale-perm-")));
after(() => rmSync(root, { recursive: true, force: true }));
const workspace = join(root, "ws");
const home = join(root, "home");
mkdirSync(join(workspace, "src"), { recursive: true });
mkdirSync(join(home, ".ssh"), { recursive: true });
const ctx: PermissionContext = { workspaceRoot: workspace, cwd: workspace, home };

const TOOLS: Record<string, ToolTraits> = {
  bash: { readOnly: false, kind: "execute" },
  read: { readOnly: true, kind: "read" },
  write: { readOnly: false, kind: "edit" },
  edit: { readOnly: false, kind: "edit" },
  glob: { readOnly: true, kind: "search" },
  grep: { readOnly: true, kind: "search" },
  todo_write: { readOnly: true, kind: "think" },
};

function call(name: string, args: Record<string, string>): PermissionCall {
  return { name, arguments: args, tool: TOOLS[name] ?? { readOnly: false, kind: "other" } };
}
const bash = (command: string) => call("bash", { command });

function decide(
  c: PermissionCall,
  rules: { allow?: string[]; ask?: string[]; deny?: string[]; mode?: PermissionMode },
) {
  const entries = (list: string[] = []) => list.map((text) => ({ text, source: "flag" }));
  const policy = compilePolicy({
    mode: rules.mode ?? "default",
    allow: entries(rules.allow),
    ask: entries(rules.ask),
    deny: entries(rules.deny),
  });
  return evaluatePermission(c, policy, ctx);
}

describe("bash rules", () => {
  it("a `:*` rule allows the command and anything after it, not a longer word", () => {
    const allow = ["bash(git status:*)"];
    assert.equal(decide(bash("git status"), { allow }).outcome, "allow");
    assert.deepEqual(decide(bash("git status --short"), { allow }), {
      outcome: "allow",
      by: "rule",
      rule: "bash(git status:*)",
    });
    assert.equal(decide(bash("git statusx"), { allow }).outcome, "ask");
    assert.equal(decide(bash("git push"), { allow }).outcome, "ask");
  });

  it("an exact rule allows only that command (whitespace runs aside)", () => {
    const allow = ["bash(npm test)"];
    assert.equal(decide(bash("npm  test"), { allow }).outcome, "allow");
    assert.equal(decide(bash("npm test -- --watch"), { allow }).outcome, "ask");
  });

  it("a bare tool name matches every call of the tool", () => {
    assert.equal(decide(bash("anything at all"), { allow: ["bash"] }).outcome, "allow");
    assert.equal(decide(bash("ls"), { deny: ["bash"], allow: ["bash"] }).outcome, "deny");
  });

  it("a `*` wildcard matches inside the command", () => {
    const allow = ["bash(npm run *)"];
    assert.equal(decide(bash("npm run build"), { allow }).outcome, "allow");
    assert.equal(decide(bash("npm ci"), { allow }).outcome, "ask");
  });

  it("built-in tool names are case-insensitive, as Claude Code users write them", () => {
    assert.equal(decide(bash("git log"), { allow: ["Bash(git log:*)"] }).outcome, "allow");
    const path = join(workspace, "src", "a.ts");
    assert.equal(decide(call("edit", { path }), { deny: ["Edit(src/**)"] }).outcome, "deny");
  });

  it("a compound command is allowed only when every part is allowed", () => {
    const allow = ["bash(git status:*)", "bash(npm test)"];
    assert.deepEqual(decide(bash("git status && npm test"), { allow }), {
      outcome: "allow",
      by: "rule",
      rule: "bash(git status:*) + bash(npm test)",
    });
    assert.equal(decide(bash("git status; npm test | tee"), { allow }).outcome, "ask");
    assert.equal(decide(bash("git status && rm -rf /"), { allow }).outcome, "ask");
    assert.equal(decide(bash("git status $(rm -rf /)"), { allow }).outcome, "ask");
    assert.equal(decide(bash("git status > /etc/passwd"), { allow }).outcome, "ask");
    assert.equal(decide(bash("git status 2>&1"), { allow }).outcome, "allow");
    assert.equal(decide(bash("git status 'a && b'"), { allow }).outcome, "allow");
  });

  it("a deny rule matches if any part matches, env assignments aside", () => {
    const deny = ["bash(rm:*)"];
    assert.equal(decide(bash("ls && rm -rf build"), { deny, mode: "bypass" }).outcome, "deny");
    assert.equal(decide(bash("echo $(rm x)"), { deny, mode: "bypass" }).outcome, "deny");
    assert.equal(decide(bash("X=1 rm x"), { deny, mode: "bypass" }).outcome, "deny");
    assert.equal(decide(bash("echo 'rm x'"), { deny, mode: "bypass" }).outcome, "allow");
  });

  it("deny wins over ask over allow", () => {
    const all = { allow: ["bash(make:*)"], ask: ["bash(make:*)"], deny: ["bash(make:*)"] };
    assert.equal(decide(bash("make"), all).outcome, "deny");
    assert.equal(decide(bash("make"), { ...all, deny: [] }).outcome, "ask");
    assert.equal(decide(bash("make"), { allow: all.allow }).outcome, "allow");
  });
});

describe("path rules", () => {
  it("globs are relative to the workspace root: ** spans directories, * does not", () => {
    const deep = call("edit", { path: "src/a/b.ts" });
    assert.equal(decide(deep, { allow: ["edit(src/**)"] }).outcome, "allow");
    assert.equal(decide(deep, { allow: ["edit(src/*.ts)"] }).outcome, "ask");
    assert.equal(
      decide(call("edit", { path: "src/b.ts" }), { allow: ["edit(src/*.ts)"] }).outcome,
      "allow",
    );
  });

  it("edit rules cover write; read rules cover the search tools", () => {
    const write = call("write", { path: "src/new.ts" });
    assert.equal(decide(write, { allow: ["edit(src/**)"] }).outcome, "allow");
    assert.equal(decide(write, { allow: ["write(src/**)"] }).outcome, "allow");
    const grep = call("grep", { pattern: "x", path: "secrets" });
    assert.equal(decide(grep, { deny: ["read(secrets/**)"] }).outcome, "deny");
  });

  it("a name without a slash matches at any depth, gitignore-style", () => {
    const env = call("read", { path: "src/deep/.env" });
    assert.equal(decide(env, { deny: ["read(.env)"] }).outcome, "deny");
    assert.equal(decide(env, { deny: ["read(*.env)"] }).outcome, "deny");
    assert.equal(decide(env, { deny: ["read(.envrc)"] }).outcome, "allow");
    assert.equal(
      decide(call("read", { path: "x/prod.env" }), { deny: ["read(*.env)"] }).outcome,
      "deny",
    );
  });

  it("`~/` is the home directory; `file_path` works as well as `path`", () => {
    const key = call("read", { file_path: join(home, ".ssh", "id_ed25519") });
    assert.deepEqual(decide(key, { deny: ["Read(~/.ssh/**)"] }), {
      outcome: "deny",
      by: "rule",
      rule: "Read(~/.ssh/**)",
      reason: 'denied by the rule "Read(~/.ssh/**)"',
    });
    assert.equal(
      decide(call("read", { path: "~/.ssh/config" }), { deny: ["read(~/.ssh/**)"] }).outcome,
      "deny",
    );
  });

  it("anything outside the workspace is denied in every mode, whatever the rules allow", () => {
    const etc = call("read", { path: "/etc/hosts" });
    const outside = decide(etc, {});
    assert.equal(outside.outcome, "deny");
    assert.match(outside.reason ?? "", /\/etc\/hosts is outside the workspace .*--cwd/);
    // The file tools refuse such paths themselves, so no rule or mode is offered as a way in.
    assert.equal(decide(etc, { allow: ["read(/etc/**)"] }).outcome, "deny");
    assert.equal(decide(etc, { allow: ["read(//etc/hosts)"] }).outcome, "deny");
    assert.equal(decide(etc, { mode: "bypass" }).outcome, "deny");
    const sibling = call("edit", { path: "../other/x.ts" });
    assert.equal(decide(sibling, { mode: "accept-edits" }).outcome, "deny");
    const globAbs = call("glob", { pattern: "/etc/*.conf" });
    assert.equal(decide(globAbs, {}).outcome, "deny");
    // A deny rule still names itself first.
    assert.equal(decide(etc, { deny: ["read(/etc/**)"] }).rule, "read(/etc/**)");
  });

  it("the session's spill directory is readable by read, grep and ls, and nothing else", () => {
    const spillDir = join(root, "spill");
    const withSpill = { ...ctx, spillDir };
    const policy = compilePolicy({ mode: "default", allow: [], ask: [], deny: [] });
    const decideIn = (c: PermissionCall) => evaluatePermission(c, policy, withSpill).outcome;
    const file = join(spillDir, "output-1.log");
    assert.equal(decideIn(call("read", { path: file })), "allow");
    assert.equal(decideIn(call("grep", { pattern: "x", path: spillDir })), "allow");
    assert.equal(decideIn(call("write", { path: file, content: "x" })), "deny");
    assert.equal(evaluatePermission(call("read", { path: file }), policy, ctx).outcome, "deny");
  });

  it("a symlink out of the workspace is judged by where it leads, a dangling one too", () => {
    symlinkSync(join(home, ".ssh"), join(workspace, "src", "keys"));
    const viaLink = call("read", { path: "src/keys/id_rsa" });
    assert.equal(decide(viaLink, { deny: ["read(~/.ssh/**)"] }).rule, "read(~/.ssh/**)");
    assert.equal(decide(viaLink, {}).outcome, "deny");
    assert.equal(
      decide(call("edit", { path: "src/keys/x" }), { allow: ["edit(src/**)"] }).outcome,
      "deny",
    );
    symlinkSync(join(home, "not-yet"), join(workspace, "src", "dangling"));
    const dangling = call("write", { path: "src/dangling", content: "x" });
    assert.match(decide(dangling, { mode: "accept-edits" }).reason ?? "", /outside/);
  });
});

describe("modes", () => {
  const read = call("read", { path: "src/a.ts" });
  const edit = call("edit", { path: "src/a.ts" });
  const shell = bash("make");

  it("default: read-only tools run, edits and shell ask", () => {
    assert.deepEqual(decide(read, {}), { outcome: "allow", by: "mode", rule: "default" });
    assert.deepEqual(decide(edit, {}), {
      outcome: "ask",
      by: "mode",
      rule: "default",
      reason: "default mode asks first: edit edits files",
    });
    assert.equal(decide(shell, {}).outcome, "ask");
    assert.equal(decide(call("todo_write", {}), {}).outcome, "allow");
  });

  it("accept-edits: edits inside the workspace run, shell asks", () => {
    assert.equal(decide(edit, { mode: "accept-edits" }).outcome, "allow");
    assert.equal(
      decide(call("write", { path: "src/n.ts" }), { mode: "accept-edits" }).outcome,
      "allow",
    );
    assert.equal(decide(shell, { mode: "accept-edits" }).outcome, "ask");
  });

  it("plan: only read-only tools; everything else is denied naming plan mode", () => {
    assert.equal(decide(read, { mode: "plan" }).outcome, "allow");
    const denied = decide(shell, { mode: "plan", allow: ["bash"] });
    assert.equal(denied.outcome, "deny");
    assert.equal(denied.by, "mode");
    assert.match(denied.reason ?? "", /plan mode/);
  });

  it("bypass: everything runs, but deny and ask rules still apply", () => {
    assert.equal(decide(shell, { mode: "bypass" }).outcome, "allow");
    assert.equal(decide(shell, { mode: "bypass", ask: ["bash(make)"] }).outcome, "ask");
    assert.equal(decide(shell, { mode: "bypass", deny: ["bash(make)"] }).outcome, "deny");
  });

  it("a tool's declared kind classifies it without its name being known", () => {
    const external = {
      name: "deploy",
      arguments: {},
      tool: { readOnly: false, kind: "edit" as const },
    };
    // An edit whose file codewhale cannot see could write a protected file: accept-edits asks.
    const unseen = decide(external, { mode: "accept-edits" });
    assert.equal(unseen.outcome, "ask");
    assert.match(unseen.reason ?? "", /edits files codewhale cannot see/);
    assert.equal(decide(external, { mode: "bypass" }).outcome, "allow");
    assert.equal(decide(external, { mode: "accept-edits", allow: ["deploy"] }).outcome, "allow");
    assert.equal(
      decide({ ...external, tool: { readOnly: false, kind: "other" } }, { mode: "accept-edits" })
        .outcome,
      "ask",
    );
  });
});

describe("malformed rules", () => {
  for (const text of [
    "bash(git:* status)",
    "bash()",
    "bash(:*)",
    "bash(ls",
    "todo_write(x)",
    "two words",
  ]) {
    it(`rejects ${JSON.stringify(text)}`, () => {
      const parsed = parseRule(text);
      assert.equal(parsed.ok, false);
      if (!parsed.ok)
        assert.match(parsed.message, new RegExp(`"${text.replace(/[()*]/g, "\\$&")}"`));
    });
  }

  it("is a ConfigError naming the file, line and rule", () => {
    const file = join(root, "config.toml");
    writeFileSync(file, '[permissions]\nallow = [\n  "bash(ok)",\n  "bash(a:*b)",\n]\n');
    const input = {
      mode: "default" as const,
      allow: [{ text: "bash(a:*b)", source: file }],
      ask: [],
      deny: [],
    };
    assert.throws(
      () => compilePolicy(input),
      (error: unknown) =>
        error instanceof ConfigError &&
        error.line === 4 &&
        error.message.startsWith(
          `${file}:4: key "permissions.allow": malformed permission rule "bash(a:*b)"`,
        ),
    );
  });
});

describe("asking", () => {
  it("suggests the narrowest rule for the call", () => {
    assert.equal(suggestRule(bash("npm test"), ctx), "bash(npm test)");
    assert.equal(suggestRule(call("edit", { path: "src/a.ts" }), ctx), "edit(src/a.ts)");
    assert.equal(suggestRule(call("edit", { path: "a.ts" }), ctx), "edit(./a.ts)");
    assert.equal(
      suggestRule(call("read", { path: join(home, ".bashrc") }), ctx),
      "read(~/.bashrc)",
    );
    assert.equal(suggestRule(call("read", { path: "/etc/hosts" }), ctx), "read(/etc/hosts)");
  });

  it("a suggested rule, granted, allows exactly that call", () => {
    const policy = compilePolicy({ mode: "default", allow: [], ask: [], deny: [] });
    const granted = withGrant(policy, suggestRule(bash("npm test"), ctx));
    assert.equal(evaluatePermission(bash("npm test"), granted, ctx).outcome, "allow");
    assert.equal(evaluatePermission(bash("npm test x"), granted, ctx).outcome, "ask");
  });

  it("exec denies, saying how to allow: mode, config rule and flag", async () => {
    const resolve = async (call: PermissionCall, reason: string) => ({
      outcome: "deny",
      reason: execDenialMessage(call, reason, ctx),
    });
    const answer = await resolve(bash("npm test"), "default mode asks first: bash runs commands");
    assert.equal(answer.outcome, "deny");
    assert.equal(
      answer.reason,
      "bash needs approval (default mode asks first: bash runs commands) and exec cannot ask. " +
        "To allow it: run with --permission-mode bypass, " +
        'add permissions.allow = ["bash(npm test)"] to your config, ' +
        "or pass --allow 'bash(npm test)'.",
    );
    const edit = await resolve(call("edit", { path: "src/a.ts" }), "why");
    assert.match(edit.reason ?? "", /--permission-mode accept-edits/);
    const quote = await resolve(bash("echo 'hi'"), "why");
    assert.match(quote.reason ?? "", /--allow 'bash\(echo '\\''hi'\\''\)'/);
  });
});

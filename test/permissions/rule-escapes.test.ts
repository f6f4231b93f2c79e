// Rules match no more than they say: an exact bash rule is one simple command compared word by
// word (a newline is a separator, never a space), the rule "allow for this session" and
// "always allow" store is escaped so a `*`, `?` or `\` of the approved call stays literal, path
// rules keep literal glob characters of file and workspace names, and names compare exactly.
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { parse } from "smol-toml";
import { addAllowRule } from "../../src/config/index.ts";
import { loadBashParser } from "../../src/permissions/bash-parser.ts";
import type {
  PermissionCall,
  PermissionContext,
  PermissionPolicy,
} from "../../src/permissions/index.ts";
import {
  compilePolicy,
  evaluatePermission,
  suggestRule,
  withGrant,
} from "../../src/permissions/index.ts";
import { matchesPath, parsePathPattern } from "../../src/permissions/rules.ts";

before(() => loadBashParser());

const root = realpathSync(mkdtempSync(join(tmpdir(), "codewhale-escapes-")));
after(() => rmSync(root, { recursive: true, force: true }));
const workspace = join(root, "ws");
const home = join(root, "home");
mkdirSync(join(workspace, "src"), { recursive: true });
const ctx: PermissionContext = { workspaceRoot: workspace, cwd: workspace, home };

function call(name: string, args: Record<string, string>, kind = "edit"): PermissionCall {
  const tool = name === "bash" ? { readOnly: false, kind: "execute" as const } : undefined;
  return { name, arguments: args, tool: tool ?? { readOnly: false, kind: kind as "edit" } };
}
const bash = (command: string) => call("bash", { command });
const edit = (path: string) => call("edit", { path });

const empty = (): PermissionPolicy =>
  compilePolicy({ mode: "default", allow: [], ask: [], deny: [] });
const policyOf = (...allow: string[]) =>
  compilePolicy({
    mode: "default",
    allow: allow.map((text) => ({ text, source: "flag" })),
    ask: [],
    deny: [],
  });
const outcome = (c: PermissionCall, policy: PermissionPolicy) =>
  evaluatePermission(c, policy, ctx).outcome;
/** The policy after "allow for this session" for `approved`. */
const granted = (approved: PermissionCall) => withGrant(empty(), suggestRule(approved, ctx));

describe("an exact bash rule is one simple command, word by word", () => {
  it("a newline between its words makes two commands, which it does not allow", () => {
    const policy = policyOf("bash(git push --dry-run)");
    assert.equal(outcome(bash("git push --dry-run"), policy), "allow");
    assert.equal(outcome(bash("git  push\t--dry-run"), policy), "allow");
    assert.equal(outcome(bash("git push\n--dry-run"), policy), "ask");
    assert.equal(outcome(bash("git push\r\n--dry-run"), policy), "ask");
    assert.equal(outcome(bash("git push;--dry-run"), policy), "ask");
  });

  it("whitespace inside a quoted word is part of the word", () => {
    const policy = policyOf('bash(git commit -m "a b")');
    assert.equal(outcome(bash('git commit -m "a b"'), policy), "allow");
    assert.equal(outcome(bash('git commit -m "a\nb"'), policy), "ask");
    assert.equal(outcome(bash('git commit -m "a  b"'), policy), "ask");
  });

  it("a compound exact rule allows only the command exactly as written", () => {
    const policy = policyOf("bash(npm test && npm run lint)");
    assert.equal(outcome(bash("npm test && npm run lint"), policy), "allow");
    assert.equal(outcome(bash("npm test &&\nnpm run lint"), policy), "ask");
    assert.equal(outcome(bash("npm test\nnpm run lint"), policy), "ask");
  });

  it("a command that looks alike in another Unicode form is another command", () => {
    const policy = policyOf("bash(echo caf\u00e9)");
    assert.equal(outcome(bash("echo caf\u00e9"), policy), "allow");
    assert.equal(outcome(bash("echo cafe\u0301"), policy), "ask");
    assert.equal(outcome(bash("\uff45cho caf\u00e9"), policy), "ask");
  });
});

/** Commands whose approval must allow that command and none of the others. */
const COMMANDS = [
  "rm -rf dist/*",
  "rm -rf dist/ /elsewhere",
  "rm -rf dist/x /elsewhere",
  "ls src/?.ts",
  "ls src/a.ts",
  "echo a:*",
  "echo a",
  "echo a:b c",
  "grep 'a\\|b' f",
  "grep 'a|b' f",
  "printf '%s\\\\n' x",
  "touch a\\ ",
  "touch a\\",
  "touch a",
  "git push --dry-run",
  "git push\n--dry-run",
  "npm test\n",
  "  npm run build",
  "npm run *",
  "npm run build",
];

describe("the rule a session grant or always-allow stores", () => {
  it("allows the approved command and no other", () => {
    for (const approved of COMMANDS) {
      const policy = granted(bash(approved));
      assert.equal(outcome(bash(approved), policy), "allow", JSON.stringify(approved));
      for (const other of COMMANDS) {
        if (other.trim() === approved.trim()) continue;
        const got = outcome(bash(other), policy);
        assert.equal(got, "ask", `${JSON.stringify(approved)} allowed ${JSON.stringify(other)}`);
      }
    }
  });

  it("escapes the rule's metacharacters", () => {
    assert.equal(suggestRule(bash("rm -rf dist/*"), ctx), "bash(rm -rf dist/\\*)");
    assert.equal(suggestRule(bash("echo a:*"), ctx), "bash(echo a:\\*)");
    assert.equal(suggestRule(bash("grep 'a\\|b' f"), ctx), "bash(grep 'a\\\\|b' f)");
    assert.equal(suggestRule(edit("src/*.ts"), ctx), "edit(src/\\*.ts)");
    assert.equal(suggestRule(edit("a?.ts"), ctx), "edit(./a\\?.ts)");
  });

  it("an escaped `*` in a rule someone writes is literal too", () => {
    const policy = policyOf("bash(rm -rf dist/\\*)");
    assert.equal(outcome(bash("rm -rf dist/*"), policy), "allow");
    assert.equal(outcome(bash("rm -rf dist/ /elsewhere"), policy), "ask");
    const prefixLike = policyOf("bash(echo a:\\*)");
    assert.equal(outcome(bash("echo a:*"), prefixLike), "allow");
    assert.equal(outcome(bash("echo a:b"), prefixLike), "ask");
  });

  it("written to a config file by always-allow, reads back as the same rule", () => {
    const file = join(root, "always", "config.toml");
    mkdirSync(join(root, "always"), { recursive: true });
    const rule = suggestRule(bash("rm -rf dist/* && grep 'a\\|b' f"), ctx);
    assert.equal(addAllowRule(file, rule), true);
    const data = parse(readFileSync(file, "utf8")) as { permissions: { allow: string[] } };
    const stored = data.permissions.allow[0] ?? "";
    assert.equal(stored, rule);
    const policy = policyOf(stored);
    assert.equal(outcome(bash("rm -rf dist/* && grep 'a\\|b' f"), policy), "allow");
    assert.equal(outcome(bash("rm -rf dist/ /x && grep 'a\\|b' f"), policy), "ask");
  });
});

describe("path rules keep literal glob characters of the names they hold", () => {
  it("an approved file whose name holds * or ? allows only that file", () => {
    for (const [approved, other] of [
      ["src/*.ts", "src/b.ts"],
      ["src/a?.ts", "src/ab.ts"],
      ["src/**", "src/x/y.ts"],
      ["*.ts", "b.ts"],
      ["src/a\\b.ts", "src/ab.ts"],
    ] as const) {
      const policy = granted(edit(approved));
      assert.equal(outcome(edit(approved), policy), "allow", approved);
      assert.equal(outcome(edit(other), policy), "ask", `${approved} allowed ${other}`);
    }
  });

  it("a file name with whitespace at its end is not another file's rule", () => {
    const policy = granted(edit("src/a.ts "));
    assert.equal(outcome(edit("src/a.ts "), policy), "allow");
    assert.equal(outcome(edit("src/a.ts"), policy), "ask");
  });

  it("a workspace directory named ~ is not the home directory", () => {
    const policy = granted(edit("~dir/.bashrc"));
    assert.equal(outcome(edit("~dir/.bashrc"), policy), "allow");
    const tilde = granted(edit(join(workspace, "~", "x")));
    assert.equal(outcome(edit(join(workspace, "~", "x")), tilde), "allow");
    assert.deepEqual(
      parsePathPattern(suggestRule(edit(join(workspace, "~", "x")), ctx).slice(5, -1)),
      {
        kind: "anchored",
        base: "workspace",
        glob: "~/x",
      },
    );
  });

  it("glob characters in the workspace's own path are literal", () => {
    const pattern = parsePathPattern("src/a.ts");
    const bases = { workspace: "/tmp/w*", home: "/home/u" };
    assert.equal(matchesPath(pattern, "/tmp/w*/src/a.ts", bases), true);
    assert.equal(matchesPath(pattern, "/tmp/wX/src/a.ts", bases), false);
    assert.equal(matchesPath(pattern, "/tmp/w/y/src/a.ts", bases), false);
  });
});

describe("tool names", () => {
  it("a tool that is not built in is named exactly, case included", () => {
    const tool = (name: string) => call(name, {}, "other");
    assert.equal(outcome(tool("Deploy"), policyOf("Deploy")), "allow");
    assert.equal(outcome(tool("deploy"), policyOf("Deploy")), "ask");
    assert.equal(outcome(tool("Deploy"), granted(tool("Deploy"))), "allow");
    assert.equal(outcome(tool("mcp__DOCS__search"), granted(tool("mcp__docs__search"))), "ask");
  });
});

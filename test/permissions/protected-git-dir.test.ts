// A git directory built file by file in accept-edits: whatever the order of the writes (config
// with core.fsmonitor, objects/, refs/, HEAD), one of them asks before real git takes the folder
// for a repository; git's recognition files, `config` and git's hooks in a hooks folder are
// protected by name at any depth; objects/ and refs/ ask beside a config; folders named like a
// git directory's parts (src/hooks, config/, refs/) without a HEAD or config stay ordinary.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, describe, it } from "node:test";
import type { PermissionCall, PermissionContext } from "../../src/permissions/index.ts";
import { compilePolicy, evaluatePermission } from "../../src/permissions/index.ts";

const root = realpathSync(mkdtempSync(join(tmpdir(), "codewhale-gitdir-")));
after(() => rmSync(root, { recursive: true, force: true }));

const FILES: Record<string, string> = {
  config: "[core]\n\trepositoryformatversion = 0\n\tfsmonitor = touch pwned\n",
  "objects/info/packs": "",
  "refs/heads/main": "",
  HEAD: "ref: refs/heads/main\n",
};

function contextFor(ws: string): PermissionContext {
  return { workspaceRoot: ws, cwd: ws, home: join(root, "home") };
}

function decide(ws: string, path: string) {
  const call: PermissionCall = {
    name: "write",
    arguments: { path, content: "x" },
    tool: { readOnly: false, kind: "edit" },
  };
  const policy = compilePolicy({ mode: "accept-edits", allow: [], ask: [], deny: [] });
  return evaluatePermission(call, policy, contextFor(ws));
}

/** Whether real git, started in `dir`, takes `gitDir` for its repository. */
function gitSees(dir: string, gitDir: string): boolean {
  try {
    const out = execFileSync("git", ["rev-parse", "--absolute-git-dir"], {
      cwd: dir,
      env: { ...process.env, GIT_CEILING_DIRECTORIES: root, HOME: root, GIT_CONFIG_NOSYSTEM: "1" },
      stdio: ["ignore", "pipe", "ignore"],
    });
    return realpathSync(out.toString().trim()) === realpathSync(gitDir);
  } catch {
    return false;
  }
}

function permutations<T>(items: readonly T[]): T[][] {
  if (items.length <= 1) return [[...items]];
  return items.flatMap((item, index) =>
    permutations([...items.slice(0, index), ...items.slice(index + 1)]).map((rest) => [
      item,
      ...rest,
    ]),
  );
}

describe("a git directory built file by file", () => {
  it("in every order of the writes, one asks before git takes the folder for a repository", () => {
    let run = 0;
    for (const order of permutations(Object.keys(FILES))) {
      const ws = join(root, `ws${run++}`);
      const evil = join(ws, "vendor", "evil");
      mkdirSync(join(evil, "sub"), { recursive: true });
      let asked: string | undefined;
      for (const name of order) {
        const decision = decide(ws, `vendor/evil/${name}`);
        if (decision.outcome !== "allow") {
          asked = name;
          assert.match(decision.reason ?? "", /is protected/);
          break;
        }
        mkdirSync(dirname(join(evil, name)), { recursive: true });
        writeFileSync(join(evil, name), FILES[name] ?? "");
        assert.equal(gitSees(join(evil, "sub"), evil), false, `${order.join(",")}: after ${name}`);
      }
      assert.ok(asked, `order ${order.join(", ")}: no write asked`);
    }
  });

  it("the files git recognises or follows a repository by are protected at any depth, by name", () => {
    const ws = join(root, "names");
    mkdirSync(ws);
    for (const path of ["a/HEAD", "head", "x/commondir", "w/gitdir", "p/packed-refs", "c/.git"]) {
      assert.equal(decide(ws, path).outcome, "ask", path);
    }
  });

  it("config and git's hooks in any folder named hooks are protected by name; unprotect lets them go", () => {
    const ws = join(root, "lookalikes");
    mkdirSync(ws);
    for (const path of ["config", "src/Config", "x/hooks/pre-commit", "y/HOOKS/post-checkout"]) {
      assert.equal(decide(ws, path).outcome, "ask", path);
    }
    for (const path of ["src/hooks/useThing.ts", "src/hooks/pre-commit.ts", "config/db.yml"]) {
      assert.equal(decide(ws, path).outcome, "allow", path);
    }
    const policy = compilePolicy({ mode: "accept-edits", allow: [], ask: [], deny: [] });
    const call = (path: string): PermissionCall => ({
      name: "write",
      arguments: { path, content: "x" },
      tool: { readOnly: false, kind: "edit" },
    });
    const unprotect = ["**/config", "**/hooks/*"];
    const released = { ...contextFor(ws), unprotect };
    assert.equal(evaluatePermission(call("deploy/config"), policy, released).outcome, "allow");
    assert.equal(evaluatePermission(call("x/hooks/pre-commit"), policy, released).outcome, "allow");
  });

  it("objects/ or refs/ beside a config ask even without a HEAD, and whatever unprotect says", () => {
    const ws = join(root, "store");
    mkdirSync(join(ws, "lib", "store"), { recursive: true });
    writeFileSync(join(ws, "lib", "store", "config"), "[core]\n");
    const released = { ...contextFor(ws), unprotect: ["**/config"] };
    const policy = compilePolicy({ mode: "accept-edits", allow: [], ask: [], deny: [] });
    for (const path of ["lib/store/objects/info/packs", "lib/store/refs/heads/main"]) {
      const call: PermissionCall = {
        name: "write",
        arguments: { path, content: "x" },
        tool: { readOnly: false, kind: "edit" },
      };
      const decision = evaluatePermission(call, policy, released);
      assert.equal(decision.outcome, "ask", path);
      assert.match(decision.reason ?? "", /makes or changes the git directory .*lib\/store/);
    }
    assert.equal(decide(ws, "lib/store/hooks/README.md").outcome, "allow");
  });

  it("a repository's HEAD shipped in the tree: adding objects/ or a config beside it asks", () => {
    const ws = join(root, "shipped");
    mkdirSync(join(ws, "lib", "bare"), { recursive: true });
    writeFileSync(join(ws, "lib", "bare", "HEAD"), "ref: refs/heads/main\n");
    for (const path of ["lib/bare/objects/x", "lib/bare/info/exclude", "lib/bare/hooks/x.md"]) {
      const decision = decide(ws, path);
      assert.equal(decision.outcome, "ask", path);
      assert.match(decision.reason ?? "", /makes or changes the git directory .*lib\/bare/);
    }
    for (const path of ["lib/bare/config", "lib/bare/hooks/post-checkout"]) {
      assert.equal(decide(ws, path).outcome, "ask", path);
    }
    assert.equal(decide(ws, "lib/bare/README.md").outcome, "allow");
  });

  it("folders named like a git directory's parts, without a HEAD or config, stay ordinary", () => {
    const ws = join(root, "plain");
    mkdirSync(join(ws, "src", "hooks"), { recursive: true });
    for (const path of [
      "src/hooks/run-hook.ts",
      "config/routes.rb",
      "src/config.ts",
      "lib/refs/heads.ts",
      "objects/x.js",
      "info/index.md",
      "docs/head.md",
    ]) {
      assert.equal(decide(ws, path).outcome, "allow", path);
    }
  });
});

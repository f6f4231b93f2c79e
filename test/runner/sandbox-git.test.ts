// The repository metadata a sandboxed command could use to make git, run later on the host,
// run a program of its choosing, with real bubblewrap and real git: `.git/commondir`, a
// submodule's gitdir (`.git/modules/*`: config, hooks, commondir) and its checkout's `.git` file,
// `.git/config.worktree`, and a linked worktree's gitdir. Each attack plants a core.fsmonitor
// (or hook) script that would leave a marker file; host git then runs outside the sandbox and
// the marker must not exist, while git keeps working inside and outside. Under CI=true a host
// without bwrap fails.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import type { OutputPolicy, RunResult, SandboxPolicy } from "../../src/runner/index.ts";
import { removeIdlePlaceholders } from "../../src/runner/index.ts";
import { outsideTmp, runSandboxed, sandboxSkip, workspaceWritePolicy } from "../support/sandbox.ts";

const output: OutputPolicy = { maxBytes: 100_000, spillToTemp: false, redactSecrets: false };
const base = outsideTmp("cw-gitguard-");
const gitEnv = {
  PATH: process.env.PATH,
  GIT_AUTHOR_NAME: "t",
  GIT_AUTHOR_EMAIL: "t@example.com",
  GIT_COMMITTER_NAME: "t",
  GIT_COMMITTER_EMAIL: "t@example.com",
  GIT_CONFIG_NOSYSTEM: "1",
  HOME: join(base, "home"),
};
mkdirSync(gitEnv.HOME);
let count = 0;

function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", ["-c", "protocol.file.allow=always", ...args], {
    cwd,
    env: gitEnv,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
}

/** A fresh directory under the test's base. */
function fresh(name: string): string {
  count += 1;
  const dir = join(base, `${name}${count}`);
  mkdirSync(dir);
  return dir;
}

/** A repository with one commit. */
function repo(dir: string): string {
  git(dir, "init", "-q");
  writeFileSync(join(dir, "file.txt"), "x\n");
  git(dir, "add", "file.txt");
  git(dir, "commit", "-q", "-m", "init");
  return dir;
}

/** A marker outside the workspace, and the fsmonitor/hook script (a shell line) writing it. */
function markerScript(): { marker: string; script: string } {
  const marker = join(fresh("marker"), "ran");
  return { marker, script: `#!/bin/sh\\ntouch ${marker}\\n` };
}

/** The shell line that writes the marker script to `fsm.sh` in the workspace, executable. */
function plantScript(script: string): string {
  return `printf '${script}' > fsm.sh && chmod +x fsm.sh`;
}

/** A `printf` of a config section pointing `core.fsmonitor` at `fsm.sh` (redirect it after). */
function fsmonitorLine(dir: string): string {
  return `printf '[core]\\n\\tfsmonitor = ${dir}/fsm.sh\\n'`;
}

/** After a command: placeholders gone, host git run outside; the marker must not exist. */
function assertHostGitRanNothing(dir: string, marker: string, run: RunResult): void {
  removeIdlePlaceholders();
  hostGit(dir);
  assert.ok(!existsSync(marker), run.output);
}

function policyOf(dir: string): SandboxPolicy {
  return workspaceWritePolicy(dir, gitEnv.HOME);
}

function sandboxed(dir: string, command: string): Promise<RunResult> {
  return runSandboxed(command, dir, policyOf(dir), gitEnv, output);
}

/** Host git in `dir` (status, then a commit that runs hooks), outside the sandbox. */
function hostGit(dir: string): void {
  git(dir, "status");
  count += 1;
  writeFileSync(join(dir, "later.txt"), `${count}\n`);
  git(dir, "add", "later.txt");
  git(dir, "commit", "-q", "-m", "later");
}

describe("git metadata that would run a program on the host (bubblewrap)", {
  skip: sandboxSkip,
}, () => {
  it("a command cannot point .git/commondir at a directory of its own; git keeps working in and out", async () => {
    const dir = repo(fresh("ws"));
    const { marker, script } = markerScript();
    const run = await sandboxed(
      dir,
      [
        plantScript(script),
        "cp -r .git evil",
        `${fsmonitorLine(dir)} >> evil/config`,
        `printf '${script}' > evil/hooks/pre-commit && chmod +x evil/hooks/pre-commit`,
        "echo ../evil > .git/commondir",
        "rm -f .git/commondir; printf ../evil > .git/commondir",
        "true",
      ].join("; "),
    );
    // While the session runs (its mount point holds "."), and after it ended.
    hostGit(dir);
    assert.ok(!existsSync(marker), run.output);
    const inside = await sandboxed(
      dir,
      "echo y > inside.txt && git add inside.txt && git commit -q -m inside && git log --oneline | wc -l",
    );
    assert.equal(inside.exitCode, 0, inside.output);
    assert.match(inside.output, /^3$/m);
    removeIdlePlaceholders();
    assert.ok(!existsSync(join(dir, ".git", "commondir")), "its mount point is removed");
    hostGit(dir);
    assert.ok(!existsSync(marker), run.output);
  });

  it("a submodule's gitdir (config, hooks, commondir) and its checkout's .git file stay as they were", async () => {
    const source = repo(fresh("subsrc"));
    const dir = repo(fresh("ws"));
    git(dir, "submodule", "add", "-q", source, "sub");
    git(dir, "commit", "-q", "-m", "sub");
    const config = readFileSync(join(dir, ".git/modules/sub/config"), "utf8");
    const { marker, script } = markerScript();
    const run = await sandboxed(
      dir,
      [
        plantScript(script),
        `${fsmonitorLine(dir)} >> .git/modules/sub/config`,
        `printf '${script}' > .git/modules/sub/hooks/post-checkout`,
        "cp -r .git/modules/sub evil",
        `${fsmonitorLine(dir)} >> evil/config`,
        "echo ../../../evil > .git/modules/sub/commondir",
        "echo 'gitdir: ../evil' > sub/.git",
        "true",
      ].join("; "),
    );
    assert.equal(readFileSync(join(dir, ".git/modules/sub/config"), "utf8"), config, run.output);
    assert.equal(run.nestedRepos, undefined, "a plain submodule is nothing to report");
    const inside = await sandboxed(
      dir,
      "echo y > top.txt && git add top.txt && git commit -q -m top && git status --short && echo ok",
    );
    assert.match(inside.output, /^ok$/m, "the superproject's git works inside");
    hostGit(dir);
    git(join(dir, "sub"), "status");
    git(dir, "submodule", "update", "--force", "--checkout");
    assert.ok(!existsSync(marker), run.output);
    assertHostGitRanNothing(dir, marker, run);
  });

  it("with extensions.worktreeConfig on, .git/config.worktree cannot be written or created", async () => {
    const dir = repo(fresh("ws"));
    git(dir, "config", "extensions.worktreeConfig", "true");
    const { marker, script } = markerScript();
    const run = await sandboxed(
      dir,
      [
        plantScript(script),
        `${fsmonitorLine(dir)} > .git/config.worktree`,
        `git config --worktree core.fsmonitor ${dir}/fsm.sh`,
        "true",
      ].join("; "),
    );
    hostGit(dir);
    assert.ok(!existsSync(marker), run.output);
    removeIdlePlaceholders();
    assert.ok(!existsSync(join(dir, ".git", "config.worktree")), "its mount point is removed");
  });

  it("a file in the workspace that .git/config includes stays as it was", async () => {
    const dir = repo(fresh("ws"));
    writeFileSync(join(dir, "shared.gitconfig"), "[core]\n\tautocrlf = false\n");
    git(dir, "config", "include.path", "../shared.gitconfig");
    const { marker, script } = markerScript();
    const run = await sandboxed(
      dir,
      [plantScript(script), `${fsmonitorLine(dir)} >> shared.gitconfig`, "true"].join("; "),
    );
    assertHostGitRanNothing(dir, marker, run);
  });

  it("a file that an included file includes in turn stays as it was", async () => {
    const dir = repo(fresh("ws"));
    writeFileSync(join(dir, "shared.gitconfig"), "[include]\n\tpath = more.gitconfig\n");
    writeFileSync(join(dir, "more.gitconfig"), "[core]\n\tautocrlf = false\n");
    git(dir, "config", "include.path", "../shared.gitconfig");
    const { marker, script } = markerScript();
    const run = await sandboxed(
      dir,
      [plantScript(script), `${fsmonitorLine(dir)} >> more.gitconfig`, "true"].join("; "),
    );
    assertHostGitRanNothing(dir, marker, run);
  });

  it("a file in the workspace that .git/config includes but that does not exist cannot be made", async () => {
    const dir = repo(fresh("ws"));
    git(dir, "config", "include.path", "../local.gitconfig");
    const { marker, script } = markerScript();
    const run = await sandboxed(
      dir,
      [plantScript(script), `${fsmonitorLine(dir)} > local.gitconfig`, "true"].join("; "),
    );
    assertHostGitRanNothing(dir, marker, run);
  });

  it("a linked worktree's gitdir in the workspace keeps its commondir and config.worktree", async () => {
    const dir = repo(fresh("ws"));
    git(dir, "config", "extensions.worktreeConfig", "true");
    git(dir, "worktree", "add", "-q", join(dir, "wt"));
    const gitdir = join(dir, ".git/worktrees/wt");
    const { marker, script } = markerScript();
    const run = await sandboxed(
      dir,
      [
        plantScript(script),
        "cp -r .git evil",
        `${fsmonitorLine(dir)} >> evil/config`,
        `echo ${dir}/evil > .git/worktrees/wt/commondir`,
        `${fsmonitorLine(dir)} > .git/worktrees/wt/config.worktree`,
        "true",
      ].join("; "),
    );
    assert.equal(readFileSync(join(gitdir, "commondir"), "utf8").trim(), "../..", run.output);
    hostGit(join(dir, "wt"));
    assert.ok(!existsSync(marker), run.output);
    removeIdlePlaceholders();
    hostGit(join(dir, "wt"));
    assert.ok(!existsSync(marker), run.output);
    // The worktree as the workspace: its gitdir lies outside, read-only as the rest is.
    const outside = join(fresh("wts"), "wt");
    git(dir, "worktree", "add", "-q", "-b", "other", outside);
    const again = await sandboxed(
      outside,
      [
        `echo ${outside}/evil > ${dir}/.git/worktrees/wt1/commondir`,
        `${fsmonitorLine(dir)} > ${dir}/.git/worktrees/wt1/config.worktree`,
        "echo 'gitdir: evil' > .git",
        "true",
      ].join("; "),
    );
    removeIdlePlaceholders();
    hostGit(outside);
    assert.ok(!existsSync(marker), again.output);
  });

  it("a nested repository with a core.fsmonitor, linked from the index, is reported after the command, once", async () => {
    const dir = repo(fresh("ws"));
    const before = await sandboxed(dir, "echo y > a.txt && git add a.txt && git commit -q -m a");
    assert.equal(before.exitCode, 0, before.output);
    assert.equal(before.nestedRepos, undefined, "git add and commit report nothing");
    const run = await sandboxed(
      dir,
      [
        "git init -q sub && git -C sub commit -q --allow-empty -m s",
        `git -C sub config core.fsmonitor ${dir}/fsm.sh`,
        "printf '#!/bin/sh\\n' > sub/.git/hooks/post-checkout",
        "git update-index --add --cacheinfo 160000,$(git -C sub rev-parse HEAD),sub",
      ].join(" && "),
    );
    assert.equal(run.exitCode, 0, run.output);
    assert.deepEqual(run.nestedRepos, [
      `sub: core.fsmonitor=${dir}/fsm.sh`,
      "sub: hooks post-checkout",
    ]);
    const again = await sandboxed(dir, "git status --short >/dev/null");
    assert.equal(again.nestedRepos, undefined, "reported once");
    const gone = await sandboxed(dir, "git rm -qf --cached sub && mv sub/.git sub/git");
    assert.equal(gone.exitCode, 0, gone.output);
    const back = await sandboxed(dir, "mv sub/git sub/.git && git add sub");
    assert.equal(back.exitCode, 0, back.output);
    assert.deepEqual(back.nestedRepos, [
      `sub: core.fsmonitor=${dir}/fsm.sh`,
      "sub: hooks post-checkout",
    ]);
  });

  it("a nested repository's path and hook names are reported escaped (the command chose them)", async () => {
    const dir = repo(fresh("ws"));
    const run = await sandboxed(
      dir,
      [
        "sub=$(printf 's\\033]0;a\\007')",
        'git init -q "$sub" && git -C "$sub" commit -q --allow-empty -m s',
        `printf '#!/bin/sh\\n' > "$sub/.git/hooks/$(printf 'h\\033]0;b\\007')"`,
        'git update-index --add --cacheinfo 160000,$(git -C "$sub" rev-parse HEAD),"$sub"',
      ].join(" && "),
    );
    assert.equal(run.exitCode, 0, run.output);
    assert.deepEqual(run.nestedRepos, ["s\\x1b]0;a\\x07: hooks h\\x1b]0;b\\x07"]);
  });

  it("a .git file appearing in a gitlink's empty checkout is reported though the index did not change", async () => {
    const dir = repo(fresh("ws"));
    const head = git(dir, "rev-parse", "HEAD").trim();
    git(dir, "update-index", "--add", "--cacheinfo", `160000,${head},lib`);
    mkdirSync(join(dir, "lib"));
    const first = await sandboxed(dir, "true");
    assert.equal(first.nestedRepos, undefined);
    const run = await sandboxed(
      dir,
      [
        "mkdir -p .git/modules && cp -r .git/. /tmp/lib && mv /tmp/lib .git/modules/lib",
        "echo 'gitdir: ../.git/modules/lib' > lib/.git",
        "printf '[filter \"x\"]\\n\\tsmudge = ./run-me\\n' >> .git/modules/lib/config",
      ].join(" && "),
    );
    assert.equal(run.exitCode, 0, run.output);
    assert.deepEqual(run.nestedRepos, ["lib: filter.x.smudge=./run-me"]);
  });
});

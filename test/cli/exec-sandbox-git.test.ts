// End to end: `codewhale exec`'s bash commands, in the OS sandbox, try to make git on the host
// run a program (a core.fsmonitor script that leaves a marker): through `.git/commondir`, which
// is refused (host git status then runs nothing), and through a nested repository linked from
// the index, which the sandbox cannot refuse without a read-only index: it is reported, in the
// result the model reads, in the session log's receipt and as a notice on stderr.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { execEnv, jsonLines, MODEL_OF, runExec } from "../support/exec-harness.ts";
import { useMockProvider } from "../support/mock-provider/index.ts";
import { outsideTmp, sandboxSkip } from "../support/sandbox.ts";

const mock = useMockProvider();
const outside = outsideTmp("cw-exec-gitguard-");
const gitEnv = {
  PATH: process.env.PATH,
  HOME: outside,
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_AUTHOR_NAME: "t",
  GIT_AUTHOR_EMAIL: "t@example.com",
  GIT_COMMITTER_NAME: "t",
  GIT_COMMITTER_EMAIL: "t@example.com",
};

function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", args, { cwd, env: gitEnv, encoding: "utf8" });
}

function bash(id: string, command: string) {
  mock.enqueue({ blocks: [{ kind: "tool", id, name: "bash", input: { command } }] });
}

/** Every `.jsonl` file under `dir`, read. */
function logsUnder(dir: string): string {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(".jsonl"))
    .map((name) => readFileSync(join(dir, name), "utf8"))
    .join("\n");
}

describe("codewhale exec: git on the host after sandboxed commands", { skip: sandboxSkip }, () => {
  it("a repointed commondir runs nothing on the host; a nested repository's fsmonitor is reported", async () => {
    const setup = execEnv(mock);
    const dir = setup.workspace;
    git(dir, "init", "-q");
    writeFileSync(join(dir, "file.txt"), "x\n");
    git(dir, "add", "file.txt");
    git(dir, "commit", "-q", "-m", "init");
    const commondirMarker = join(outside, "commondir-ran");
    const nestedMarker = join(outside, "nested-ran");
    const script = (marker: string) => `printf '#!/bin/sh\\ntouch ${marker}\\n'`;
    bash(
      "toolu_1",
      [
        `${script(commondirMarker)} > fsm.sh; chmod +x fsm.sh`,
        "cp -r .git evil",
        `printf '[core]\\n\\tfsmonitor = ${dir}/fsm.sh\\n' >> evil/config`,
        "echo ../evil > .git/commondir",
        "true",
      ].join("; "),
    );
    bash(
      "toolu_2",
      [
        `${script(nestedMarker)} > nested.sh && chmod +x nested.sh`,
        "git init -q sub && git -C sub -c user.name=t -c user.email=t@t commit -q --allow-empty -m s",
        `git -C sub config core.fsmonitor ${dir}/nested.sh`,
        "git update-index --add --cacheinfo 160000,$(git -C sub rev-parse HEAD),sub",
      ].join(" && "),
    );
    mock.enqueue({ blocks: [{ kind: "text", text: "done" }] });
    const args = ["--model", MODEL_OF.anthropic, "--permission-mode", "bypass"];
    const run = await runExec([...args, "--output-format", "stream-json", "go"], setup, "");
    assert.equal(run.status, 0, run.stderr);
    const results = jsonLines(run.stdout).filter((line) => line.type === "tool/result");
    const expected = `sub: core.fsmonitor=${dir}/nested.sh`;
    // The model reads it, the receipt in the log records it, the user is told.
    assert.match(String(results[1]?.content), /\[sandbox: warning: a nested git repository/);
    assert.ok(String(results[1]?.content).includes(expected), String(results[1]?.content));
    const receipt = results[1]?.sandbox as { nested_repos?: string[] } | undefined;
    assert.deepEqual(receipt?.nested_repos, [expected]);
    assert.ok(logsUnder(join(setup.home, "sessions")).includes(`"nested_repos":["${expected}"]`));
    assert.match(run.stderr, /sandbox: warning: after a bash command, a nested git repository/);
    assert.ok(run.stderr.includes(expected), run.stderr);
    assert.equal(results[0]?.sandbox && "nested_repos" in (results[0].sandbox as object), false);
    // Host git, outside the sandbox: the commondir attack runs nothing, and git still works.
    git(dir, "status");
    git(dir, "add", "file.txt");
    assert.ok(!existsSync(commondirMarker), String(results[0]?.content));
  });
});

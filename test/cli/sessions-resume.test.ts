// `exec --resume <short id>` and `exec --continue` from a subdirectory, through the built CLI
// and the loopback mock: the short id a listing shows resumes that session, and --continue
// started below the project root continues the project's session with the newest activity
// (not a session of another project, nor a newer one elsewhere).
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { listSessionFiles } from "../../src/session/paths.ts";
import { readSession } from "../../src/session/reader.ts";
import { execEnv, MODEL_OF, runExec } from "../support/exec-harness.ts";
import { useMockProvider } from "../support/mock-provider/index.ts";

const model = ["--model", MODEL_OF.anthropic];

function prompts(path: string): string[] {
  return readSession(path).events.flatMap((e) => (e.type === "user/message" ? [e.text] : []));
}

describe("exec resumes by short id and continues from a subdirectory", () => {
  const mock = useMockProvider();

  it("--resume takes the short id of a listing", async () => {
    const setup = execEnv(mock);
    mock.enqueue(
      { blocks: [{ kind: "text", text: "one" }] },
      { blocks: [{ kind: "text", text: "two" }] },
    );
    assert.equal((await runExec([...model, "first"], setup)).status, 0);
    const [log] = listSessionFiles(join(setup.home, "sessions"));
    const short = log!.slice(-".jsonl".length - 8, -".jsonl".length);
    const run = await runExec([...model, "--resume", short, "second"], setup);
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(prompts(log!), ["first", "second"]);
  });

  it("--continue in a subdirectory continues the project root's newest session", async () => {
    const setup = execEnv(mock);
    const root = join(setup.workspace, "proj");
    const other = join(setup.workspace, "other");
    for (const dir of [join(root, ".git"), join(root, "src", "deep"), join(other, ".git")]) {
      mkdirSync(dir, { recursive: true });
      // A repository, not the empty mount point the sandbox leaves for a missing .git.
      if (dir.endsWith(".git")) writeFileSync(join(dir, "HEAD"), "ref: refs/heads/main\n");
    }
    for (let i = 0; i < 4; i++) mock.enqueue({ blocks: [{ kind: "text", text: `answer ${i}` }] });
    const at = (cwd: string) => ({ ...setup, workspace: cwd });
    assert.equal((await runExec([...model, "in the root"], at(root))).status, 0);
    assert.equal((await runExec([...model, "another project"], at(other))).status, 0);
    const [otherLog, rootLog] = listSessionFiles(join(setup.home, "sessions"));
    const run = await runExec([...model, "--continue", "from deep"], at(join(root, "src", "deep")));
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(prompts(rootLog!), ["in the root", "from deep"]);
    assert.deepEqual(prompts(otherLog!), ["another project"]);
    const none = await runExec([...model, "--continue", "x"], at(setup.home));
    assert.equal(none.status, 2);
    assert.match(none.stderr, /^codewhale: no session to continue for /);
  });
});

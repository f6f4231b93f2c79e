// `codewhale rewind` and `codewhale checkpoints` as a user runs them (the built CLI as a child
// process) on a session an agent wrote in a temp workspace: the listing, a rewind and its
// redo recorded in a log that `sessions verify` accepts, a conflict refused with exit 4, and
// rewinds killed with SIGKILL at several moments, finished whole by reopening the session or
// by the next rewind.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { checkpointsCheck } from "../../src/cli/checkpoints-prune.ts";
import { readSession } from "../../src/session/reader.ts";
import { openHarness, scripted } from "../agent/scripted.ts";
import { cliPath, runCli } from "../support/cli.ts";

/**
 * The files the killed rewinds restore and remove: enough that a rewind takes long enough for
 * the test to see it part-way (it polls each millisecond); each one costs every rewind and check.
 */
const FILES = 600;

const BASH_OPTIONS = {
  defaultTools: true,
  guard: { mode: "bypass" as const },
  flags: { sandbox: { mode: "off" as const } },
  env: { ANTHROPIC_API_KEY: "sk-ant-api03-test", PATH: process.env.PATH ?? "" },
};

/** A session whose first prompt rewrote `a.txt` and made `many/` (files) with bash. */
async function sessionWithEdits(files = 3) {
  const make = `mkdir many && for i in $(seq 1 ${files}); do echo $i > many/f$i; done`;
  const script = scripted(
    { calls: [{ id: "c1", name: "bash", args: { command: `echo new > a.txt && ${make}` } }] },
    { text: "done" },
    { text: "nothing to do" },
  );
  const h = await openHarness(script, BASH_OPTIONS);
  writeFileSync(join(h.workspace, "a.txt"), "old\n");
  await h.agent.submit("edit");
  await h.agent.submit("look");
  const id = h.agent.sessionId;
  const path = h.agent.logPath;
  await h.agent.close();
  return { ...h, id, path, env: { CODEWHALE_HOME: h.home } };
}

describe("codewhale rewind and checkpoints", () => {
  it("lists the prompts with their files, rewinds, redoes, and the log verifies", async () => {
    const s = await sessionWithEdits();
    const listed = runCli(["checkpoints", s.id, "--session-dir", s.sessions], { env: s.env });
    assert.equal(listed.status, 0, listed.stderr);
    assert.match(listed.stdout, /^ {2}1 {2}edit +4 files: a\.txt, many\/f1, many\/f2, many\/f3$/m);
    assert.match(listed.stdout, /^ {2}2 {2}look +no file changed$/m);

    const rewound = runCli(["rewind", s.id, "--to", "1", "--session-dir", s.sessions], {
      env: s.env,
    });
    assert.equal(rewound.status, 0, rewound.stderr);
    assert.match(rewound.stdout, /^rewound \(code\) to before prompt 1$/m);
    assert.match(rewound.stdout, /^ {2}restored a\.txt$/m);
    assert.equal(readFileSync(join(s.workspace, "a.txt"), "utf8"), "old\n");
    assert.equal(existsSync(join(s.workspace, "many")), false);

    const redone = runCli(["rewind", s.id, "--redo", "--session-dir", s.sessions], { env: s.env });
    assert.equal(redone.status, 0, redone.stderr);
    assert.equal(readFileSync(join(s.workspace, "a.txt"), "utf8"), "new\n");
    assert.equal(readFileSync(join(s.workspace, "many", "f2"), "utf8"), "2\n");

    const verified = runCli(["sessions", "verify", s.path], { env: s.env });
    assert.equal(verified.status, 0, verified.stderr);
    assert.match(verified.stdout, /workspace checkpoints and 2 rewinds agree/);
    const rewinds = readSession(s.path).events.filter((e) => e.type === "checkpoint/rewind");
    assert.deepEqual(
      rewinds.map((e) => e.type === "checkpoint/rewind" && e.by),
      ["cli", "cli"],
    );
  });

  it("refuses with exit 4, naming the file, when a file changed outside codewhale; --force overwrites it", async () => {
    const s = await sessionWithEdits();
    writeFileSync(join(s.workspace, "a.txt"), "mine\n");
    const args = ["rewind", s.id, "--to", "1", "--session-dir", s.sessions];
    const refused = runCli(args, { env: s.env });
    assert.equal(refused.status, 4);
    assert.match(
      refused.stderr,
      /changed outside codewhale since the last checkpoint: a\.txt; pass --force/,
    );
    assert.equal(readFileSync(join(s.workspace, "a.txt"), "utf8"), "mine\n");
    const forced = runCli([...args, "--force"], { env: s.env });
    assert.equal(forced.status, 0, forced.stderr);
    assert.equal(readFileSync(join(s.workspace, "a.txt"), "utf8"), "old\n");
  });

  it("kill -9 at several moments of a rewind of many files: the log verifies, and reopening the session or the next rewind finishes it whole", async () => {
    const s = await sessionWithEdits(FILES);
    const journal = join(s.home, "checkpoints", s.id, "rewind.json");
    const many = join(s.workspace, "many");
    const left = () => (existsSync(many) ? readdirSync(many).length : 0);
    const original = () =>
      readFileSync(join(s.workspace, "a.txt"), "utf8") === "old\n" && left() === 0;
    const edited = () =>
      readFileSync(join(s.workspace, "a.txt"), "utf8") === "new\n" && left() === FILES;
    const cli = (...args: string[]) => [...args, "--session-dir", s.sessions];

    /** Runs the CLI and kills it with SIGKILL once `moment()` holds; whether it was killed. */
    async function killDuring(args: string[], moment: () => boolean): Promise<boolean> {
      const env = { PATH: process.env.PATH ?? "", ...s.env };
      const child = spawn(process.execPath, [cliPath, ...args], { env, stdio: "ignore" });
      const exited = new Promise((resolve) => child.once("exit", resolve));
      while (child.exitCode === null && !moment()) await new Promise((r) => setTimeout(r, 1));
      const killed = child.exitCode === null;
      if (killed) child.kill("SIGKILL");
      await exited;
      const verified = runCli(["sessions", "verify", s.path], { env: s.env });
      assert.equal(verified.status, 0, `the log verifies after the kill: ${verified.stderr}`);
      return killed;
    }
    async function reopen(): Promise<void> {
      const h = await openHarness(scripted(), {
        ...BASH_OPTIONS,
        home: s.home,
        workspace: s.workspace,
        resume: s.id,
      });
      await h.agent.close();
    }
    const recovered = () =>
      readSession(s.path).events.filter((e) => e.type === "checkpoint/rewind" && e.recovered)
        .length;

    // 1. Back to before prompt 1, killed once its journal is written; reopening finishes it.
    const first = await killDuring(cli("rewind", s.id, "--to", "1"), () => existsSync(journal));
    assert.ok(first, "killed after the journal was written, before the rewind was recorded");
    await reopen();
    assert.ok(original(), "the new state, whole");
    assert.equal(existsSync(journal), false);
    assert.equal(recovered(), 1);

    // 2. Its redo, killed with part of the files written back; the next rewind finishes it first.
    const second = await killDuring(cli("rewind", s.id, "--redo"), () => left() > FILES / 5);
    const rewound = runCli(cli("rewind", s.id, "--to", "1"), { env: s.env });
    assert.equal(rewound.status, 0, rewound.stderr);
    if (second) assert.match(rewound.stdout, /^finished an interrupted rewind|^rewound/m);
    assert.ok(original(), "the redo was finished, then the rewind to before prompt 1 was done");

    // 3. Redo again, killed later; reopening finishes it.
    const third = await killDuring(cli("rewind", s.id, "--redo"), () => left() > (FILES * 2) / 3);
    await reopen();
    assert.ok(edited(), "the redo, whole");

    // 4. Back to before prompt 1 again, killed with part of the files removed.
    const fourth = await killDuring(cli("rewind", s.id, "--to", "1"), () => left() < FILES / 2);
    await reopen();
    assert.ok(original(), "the rewind, whole");

    assert.ok([second, third, fourth].some(Boolean), "at least one kill came mid-way");
    const verified = runCli(["sessions", "verify", s.path], { env: s.env });
    assert.equal(verified.status, 0, verified.stderr);
    assert.equal(existsSync(journal), false);
    const finished = runCli(cli("rewind", s.id, "--finish"), { env: s.env });
    assert.equal(finished.status, 2, "nothing is left to finish");
  });

  it("sessions prune removes the stores of sessions inactive for keep_days, never the logs; doctor counts them", async () => {
    const s = await sessionWithEdits();
    const store = join(s.home, "checkpoints", s.id);
    assert.match(checkpointsCheck(s.home).detail, /^1 session store, \d+\.\d MB in /);
    const kept = runCli(["sessions", "prune", "--session-dir", s.sessions], { env: s.env });
    assert.equal(kept.status, 0, kept.stderr);
    assert.match(kept.stdout, /^0 checkpoint stores; freed 0\.0 MB; session logs are kept$/m);
    assert.equal(existsSync(store), true, "a session active today keeps its store");
    const args = ["sessions", "prune", "--older-than", "0", "--session-dir", s.sessions];
    const pruned = runCli(args, { env: s.env });
    assert.equal(pruned.status, 0, pruned.stderr);
    assert.match(pruned.stdout, /^removed .* \(inactive since \d{4}-\d\d-\d\d, /m);
    assert.equal(existsSync(store), false);
    assert.equal(existsSync(s.path), true, "the log is the receipt: never pruned");
  });
});

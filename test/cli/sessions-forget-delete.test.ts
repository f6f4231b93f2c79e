// `codewhale sessions forget ID --delete` through the built CLI: without a terminal and without
// --yes it refuses (one line, exit 2, nothing removed); --yes deletes the log, its checkpoint
// store and its place in the index; on a terminal it asks (n keeps everything, exit 1; y
// deletes); a session another process has open is never deleted.
import assert from "node:assert/strict";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, describe, it } from "node:test";
import { SessionWriter } from "../../src/session/writer.ts";
import { runCli, runCliOnTerminal } from "../support/cli.ts";
import { startPayload, tempDir, writeSession } from "../support/session-fixtures.ts";
import { skipWithout } from "../support/system-tools.ts";

let home = "";
let sessions = "";
const cli = (...args: string[]) => runCli(args, { env: { CODEWHALE_HOME: home }, cwd: home });

/** A closed session with a checkpoint store; the search index already holds it. */
function sessionWithCheckpoints(): { id: string; path: string; store: string } {
  const { id, path } = writeSession(sessions);
  const store = join(home, "checkpoints", id);
  mkdirSync(store, { recursive: true });
  writeFileSync(join(store, "blob"), "checkpointed bytes");
  assert.equal(cli("sessions", "search", "files").status, 0, "indexed");
  return { id, path, store };
}

/** The CLI with a pseudo-terminal as stdin, typing `answer`, in this test's home. */
function onTerminal(args: string[], answer: string) {
  return runCliOnTerminal(args, answer, { env: { CODEWHALE_HOME: home }, cwd: home });
}

beforeEach(() => {
  home = tempDir("cw-home-");
  sessions = join(home, "sessions");
});

describe("sessions forget --delete", () => {
  it("without a terminal and without --yes: one line, exit 2, nothing removed", () => {
    const { id, path, store } = sessionWithCheckpoints();
    const run = cli("sessions", "forget", id, "--delete");
    assert.equal(run.status, 2);
    assert.match(run.stderr, /^codewhale: deleting .* needs a yes: .*rerun with --yes\n$/);
    assert.ok(existsSync(path) && existsSync(store));
    assert.equal(cli("sessions", "search", "files").status, 0, "still in the index");
  });

  it("--yes deletes the log, its checkpoints and its place in the index", () => {
    const { id, path, store } = sessionWithCheckpoints();
    const run = cli("sessions", "forget", id, "--delete", "--yes");
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /^deleted \S+: its log, its checkpoints and its place/);
    assert.ok(!existsSync(path), "the log is gone");
    assert.ok(!existsSync(`${path}.lock`), "no lock left behind");
    assert.ok(!existsSync(store), "the checkpoints are gone");
    assert.equal(cli("sessions", "search", "files").status, 1);
    assert.notEqual(cli("sessions", "show", id).status, 0, "no such session");
  });

  it("on a terminal it asks: n keeps everything (exit 1), y deletes", {
    skip: skipWithout("script"),
  }, () => {
    const { id, path, store } = sessionWithCheckpoints();
    const no = onTerminal(["sessions", "forget", id, "--delete"], "n\n");
    assert.match(no.stdout, /Delete .* and its checkpoints .* for good\? \[y\/N\]/);
    assert.match(no.stdout, /left unchanged: /);
    assert.equal(no.status, 1);
    assert.ok(existsSync(path) && existsSync(store));
    assert.equal(cli("sessions", "search", "files").status, 0, "not forgotten either");
    const yes = onTerminal(["sessions", "forget", id, "--delete"], "y\n");
    assert.equal(yes.status, 0, yes.stdout);
    assert.ok(!existsSync(path) && !existsSync(store));
  });

  it("never deletes a session another process has open: the lock line, exit 1", () => {
    const writer = SessionWriter.create(sessions, startPayload);
    writer.append({ type: "user/message", text: "still going" });
    const run = cli("sessions", "forget", writer.id, "--delete", "--yes");
    writer.close();
    assert.equal(run.status, 1);
    assert.match(
      run.stderr,
      new RegExp(`^codewhale: session ${writer.id} is open in process ${process.pid} on \\S+\\n$`),
    );
    assert.ok(existsSync(writer.path));
  });
});

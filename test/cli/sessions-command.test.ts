// End to end: `codewhale sessions list|show|verify|path` as a child process over logs written
// by the real writer in a temp CODEWHALE_HOME.
import assert from "node:assert/strict";
import { appendFileSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, describe, it } from "node:test";
import { runCli } from "../support/cli.ts";
import { editLine, sampleTurn, tempDir, writeSession } from "../support/session-fixtures.ts";

let home = "";
let sessions = "";
const cli = (...args: string[]) => runCli(args, { env: { CODEWHALE_HOME: home }, cwd: home });

beforeEach(() => {
  home = tempDir("cw-home-");
  sessions = join(home, "sessions");
});

describe("codewhale sessions", () => {
  it("lists sessions newest first with start, event count, bytes, cwd and first prompt", () => {
    const older = writeSession(sessions);
    const newer = writeSession(sessions, [{ type: "user/message", text: "second session" }]);
    const run = cli("sessions", "list", "--json");
    assert.equal(run.status, 0, run.stderr);
    const listed = JSON.parse(run.stdout) as Array<Record<string, unknown>>;
    assert.deepEqual(
      listed.map((s) => s.id),
      [newer.id, older.id],
    );
    assert.equal(listed[1]!.events, sampleTurn().length + 1);
    assert.equal(listed[1]!.firstPrompt, "list the files");
    assert.equal(listed[0]!.cwd, "/work/project");
    assert.equal(listed[1]!.turns, 1);
    assert.equal(listed[1]!.cost, 0.0001);
    const text = cli("sessions", "list");
    assert.match(
      text.stdout,
      new RegExp(`^${newer.id.slice(-8)} .* 0 +- +/work/project +second session$`, "m"),
    );
  });

  it("says so when there are no sessions", () => {
    assert.equal(cli("sessions", "list").stdout, "no sessions\n");
  });

  it("shows a session by unique prefix, folding chunks into one line", () => {
    const { id } = writeSession(sessions);
    const run = cli("sessions", "show", id.slice(0, 13));
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, new RegExp(`^session ${id} \\(${id.slice(-8)}\\)$`, "m"));
    assert.match(run.stdout, /^#4 text: Let me look\.$/m);
    assert.match(run.stdout, /^#8 tool\/call ls \. \[allow by mode\]$/m);
    const json = JSON.parse(cli("sessions", "show", id, "--json").stdout);
    assert.equal(json.events.length, sampleTurn().length + 1);
  });

  it("verifies an intact log and exits 0", () => {
    const { id, path } = writeSession(sessions);
    const run = cli("sessions", "verify", id);
    assert.equal(run.status, 0, run.stderr);
    assert.match(
      run.stdout,
      new RegExp(
        `^ok ${path}: 11 events, chain intact, last h [0-9a-f]{64}\\n  chain intact up to seq 10\\n  unsigned: no checkpoint `,
      ),
    );
    assert.equal(cli("sessions", "verify", path).status, 0);
  });

  it("names the first problem's line and reason and exits 1", () => {
    const { path } = writeSession(sessions);
    editLine(path, 5, (line) => line.replace("look", "LOOK"));
    const run = cli("sessions", "verify", path);
    assert.equal(run.status, 1);
    assert.equal(run.stderr, `codewhale: ${path}:6: hash chain broken\n`);
    assert.equal(run.stdout, "");
  });

  it("reports a torn last line as a problem", () => {
    const { path } = writeSession(sessions);
    appendFileSync(path, '{"v":1,"se');
    const run = cli("sessions", "verify", path);
    assert.equal(run.status, 1);
    assert.match(run.stderr, /:12: torn last line \(10 bytes after the last complete event/);
  });

  it("prints the path of a session, and one line for an unknown id (exit 2)", () => {
    const { id, path } = writeSession(sessions);
    assert.equal(cli("sessions", "path", id).stdout, `${path}\n`);
    const missing = cli("sessions", "path", "ffff");
    assert.equal(missing.status, 2);
    assert.equal(missing.stderr, `codewhale: no session matches "ffff" in ${sessions}\n`);
  });

  it("honours --session-dir", () => {
    const elsewhere = tempDir();
    const { id } = writeSession(elsewhere);
    const run = cli("sessions", "list", "--json", "--session-dir", elsewhere);
    assert.deepEqual(
      (JSON.parse(run.stdout) as Array<{ id: string }>).map((s) => s.id),
      [id],
    );
  });
});

describe("codewhale sessions show --at", () => {
  it("shows the session as it stood at a seq, from the same log", () => {
    const { id } = writeSession(sessions);
    const run = cli("sessions", "show", id, "--at", "3", "--json");
    assert.equal(run.status, 0, run.stderr);
    const shown = JSON.parse(run.stdout) as { events: Array<{ seq: number }> };
    assert.deepEqual(
      shown.events.map((e) => e.seq),
      [0, 1, 2, 3],
    );
    const bad = cli("sessions", "show", id, "--at", "x");
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /--at needs a seq/);
  });
});

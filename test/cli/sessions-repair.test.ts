// End to end: a log damaged after valid lines still opens in `sessions show` (text and JSON) with
// one line naming the damage; `exec --resume` refuses it naming `sessions repair`; `sessions
// repair` asks on a terminal, takes --yes from scripts, refuses with neither (exit 2), refuses
// while the session is open, and after the cut the session resumes and verifies.
import assert from "node:assert/strict";
import { appendFileSync, readdirSync, readFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { beforeEach, describe, it } from "node:test";
import { SessionWriter } from "../../src/session/writer.ts";
import { runCli, runCliOnTerminal } from "../support/cli.ts";
import { execEnv, MODEL_OF, runExec } from "../support/exec-harness.ts";
import { useMockProvider } from "../support/mock-provider/index.ts";
import { startPayload, tempDir, writeSession } from "../support/session-fixtures.ts";
import { skipWithout } from "../support/system-tools.ts";

let home = "";
let sessions = "";
const cli = (...args: string[]) => runCli(args, { env: { CODEWHALE_HOME: home }, cwd: home });
const GARBAGE = "a line that is not JSON\n";

/** A session of 11 good events followed by a bad line. */
function damagedSession(): { id: string; path: string; bytes: Buffer } {
  const { id, path } = writeSession(sessions);
  appendFileSync(path, GARBAGE);
  return { id, path, bytes: readFileSync(path) };
}

/** The CLI with a pseudo-terminal as stdin, typing `answer`, in this test's home. */
function onTerminal(args: string[], answer: string) {
  return runCliOnTerminal(args, answer, { env: { CODEWHALE_HOME: home }, cwd: home });
}

beforeEach(() => {
  home = tempDir("cw-home-");
  sessions = join(home, "sessions");
});

describe("sessions show of a damaged log", () => {
  it("shows the valid events and ends with one line naming the damage and the repair", () => {
    const { id } = damagedSession();
    const run = cli("sessions", "show", id);
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stderr, "");
    const lines = run.stdout.trimEnd().split("\n");
    assert.match(lines.at(-2)!, /^#10 turn\/end 0/);
    assert.equal(
      lines.at(-1),
      `(damaged tail after seq 10: line 12: invalid JSON; ${GARBAGE.length} bytes not shown; \`codewhale sessions repair ${id}\` cuts it, keeping the cut lines)`,
    );
    assert.match(run.stdout, /\n {2}events {4}11 \(/);
  });

  it("--json carries the events read and a `damaged` object", () => {
    const { id, path } = damagedSession();
    const run = cli("sessions", "show", id, "--json");
    assert.equal(run.status, 0, run.stderr);
    const shown = JSON.parse(run.stdout) as { events: unknown[]; damaged: unknown };
    assert.equal(shown.events.length, 11);
    const offset = readFileSync(path).length - GARBAGE.length;
    assert.deepEqual(shown.damaged, {
      line: 12,
      reason: "invalid JSON",
      offset,
      bytes: GARBAGE.length,
      afterSeq: 10,
    });
  });

  it("`sessions verify` still fails on it, exit 1", () => {
    const { id } = damagedSession();
    const run = cli("sessions", "verify", id);
    assert.equal(run.status, 1);
    assert.match(run.stderr, /^codewhale: .*\.jsonl:12: invalid JSON\n$/);
  });
});

describe("sessions repair", () => {
  it("without a terminal and without --yes: one line, exit 2, nothing changed", () => {
    const { id, path, bytes } = damagedSession();
    const run = cli("sessions", "repair", id);
    assert.equal(run.status, 2);
    assert.equal(
      run.stderr,
      `codewhale: ${path}: the tail after seq 10 is damaged (line 12: invalid JSON; 1 line, ${GARBAGE.length} bytes); no terminal to ask on: rerun with --yes to cut it\n`,
    );
    assert.deepEqual(readFileSync(path), bytes);
    assert.deepEqual(readdirSync(dirname(path)), [basename(path)]);
  });

  it("--yes cuts at the last good line and keeps the cut line in a side file", () => {
    const { id, path, bytes } = damagedSession();
    const run = cli("sessions", "repair", id, "--yes");
    assert.equal(run.status, 0, run.stderr);
    const side = readdirSync(dirname(path)).find((name) => name.includes(".cut-"))!;
    assert.equal(
      run.stdout,
      `cut 1 line (${GARBAGE.length} bytes) after seq 10; kept in ${join(dirname(path), side)}\n`,
    );
    assert.equal(readFileSync(join(dirname(path), side), "utf8"), GARBAGE);
    assert.deepEqual(
      readFileSync(path).subarray(0, bytes.length - GARBAGE.length),
      bytes.subarray(0, -GARBAGE.length),
    );
    assert.equal(cli("sessions", "verify", id).status, 0);
    const again = cli("sessions", "repair", id);
    assert.equal(again.stdout, `nothing to repair: ${path} is intact (12 events)\n`);
  });

  it("on a terminal it asks: n leaves the log unchanged (exit 1), y cuts it", {
    skip: skipWithout("script"),
  }, () => {
    const { id, path, bytes } = damagedSession();
    const no = onTerminal(["sessions", "repair", id], "n\n");
    assert.match(
      no.stdout,
      /the tail after seq 10 is damaged .*\r?\nCut it, keeping the cut lines in a side file next to the log\? \[y\/N\]/,
    );
    assert.match(no.stdout, /left unchanged: /);
    assert.equal(no.status, 1);
    assert.deepEqual(readFileSync(path), bytes);
    const yes = onTerminal(["sessions", "repair", id], "y\n");
    assert.equal(yes.status, 0, yes.stdout);
    assert.match(yes.stdout, /cut 1 line \(\d+ bytes\) after seq 10; kept in /);
    assert.equal(cli("sessions", "verify", id).status, 0);
  });

  it("refuses while another process has the session open: the lock line, exit 1", () => {
    const writer = SessionWriter.create(sessions, startPayload);
    const run = cli("sessions", "repair", writer.id, "--yes");
    writer.close();
    assert.equal(run.status, 1);
    assert.match(
      run.stderr,
      new RegExp(`^codewhale: session ${writer.id} is open in process ${process.pid} on \\S+\\n$`),
    );
  });
});

describe("exec --resume of a damaged log", () => {
  const mock = useMockProvider();

  it("refuses naming the bad line and `sessions repair`; after the repair it resumes", async () => {
    const setup = execEnv(mock);
    home = setup.home;
    sessions = join(home, "sessions");
    const { id, path } = damagedSession();
    const model = ["--model", MODEL_OF["openai-chat"]];
    const refused = await runExec([...model, "--resume", id, "again"], setup);
    assert.equal(refused.status, 1);
    assert.equal(
      refused.stderr,
      `codewhale: ${path}:12: invalid JSON; the log is valid up to seq 10; \`codewhale sessions repair ${id}\` can cut the damaged tail, keeping the cut lines\n`,
    );
    assert.equal(mock.requests.length, 0, "nothing was sent");
    assert.equal(cli("sessions", "repair", id, "--yes").status, 0);
    mock.enqueue({ blocks: [{ kind: "text", text: "back" }] });
    const resumed = await runExec([...model, "--resume", id, "again"], setup);
    assert.equal(resumed.status, 0, resumed.stderr);
    assert.equal(cli("sessions", "verify", id).status, 0);
  });
});

// End to end: the session views stay usable when the sessions folder holds things that are not
// logs (a directory or a symlink loop named `*.jsonl`), never let text from a log drive the
// terminal, and name a missing log plainly.
import assert from "node:assert/strict";
import { mkdirSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { beforeEach, describe, it } from "node:test";
import { terminalSafe } from "../../src/runner/index.ts";
import { listSessionFiles, newSessionId, sessionPath } from "../../src/session/paths.ts";
import { SessionWriter } from "../../src/session/writer.ts";
import { runCli } from "../support/cli.ts";
import { execEnv, MODEL_OF, runExec } from "../support/exec-harness.ts";
import { useMockProvider } from "../support/mock-provider/index.ts";
import { startPayload, tempDir, writeSession } from "../support/session-fixtures.ts";

let home = "";
let sessions = "";
const cli = (...args: string[]) => runCli(args, { env: { CODEWHALE_HOME: home }, cwd: home });

beforeEach(() => {
  home = tempDir("cw-home-");
  sessions = join(home, "sessions");
});

/** A directory and a symlink loop, both named like logs and newer than any real one. */
function addLookAlikes(sessionsDir: string): { directory: string; loop: string } {
  const directory = sessionPath(sessionsDir, newSessionId());
  mkdirSync(directory, { recursive: true });
  const loop = join(dirname(directory), "loop.jsonl");
  symlinkSync(loop, loop);
  return { directory, loop };
}

describe("sessions folder look-alikes", () => {
  it("lists only regular files, following a symlink to a log and skipping the rest", () => {
    const real = writeSession(sessions);
    const { directory } = addLookAlikes(sessions);
    const linked = join(dirname(directory), "linked.jsonl");
    symlinkSync(real.path, linked);
    symlinkSync(join(sessions, "gone.jsonl"), join(dirname(directory), "dangling.jsonl"));
    writeFileSync(join(sessions, "2099"), "a file where a year directory would be");
    assert.deepEqual(listSessionFiles(sessions), [linked, real.path]);
  });

  it("`sessions list` still works, in text and JSON", () => {
    const real = writeSession(sessions);
    addLookAlikes(sessions);
    const text = cli("sessions", "list");
    assert.equal(text.status, 0, text.stderr);
    assert.equal(text.stderr, "");
    assert.match(text.stdout, new RegExp(`^ID .*\\n${real.id.slice(-8)} .*list the files\\n$`));
    const json = cli("sessions", "list", "--json");
    assert.deepEqual(
      (JSON.parse(json.stdout) as Array<{ id: string }>).map((s) => s.id),
      [real.id],
    );
  });

  it("`sessions show` with the id of a directory says no session matches (exit 2)", () => {
    writeSession(sessions);
    const { directory } = addLookAlikes(sessions);
    const id = directory.slice(directory.lastIndexOf("/") + 1, -".jsonl".length);
    const run = cli("sessions", "show", id);
    assert.equal(run.status, 2);
    assert.equal(run.stderr, `codewhale: no session matches "${id}" in ${sessions}\n`);
  });
});

describe("exec --continue past look-alikes", () => {
  const mock = useMockProvider();

  it("continues the newest real session of the directory", async () => {
    const setup = execEnv(mock);
    const model = ["--model", MODEL_OF.anthropic];
    mock.enqueue({ blocks: [{ kind: "text", text: "one" }] });
    const first = await runExec([...model, "hi"], setup);
    assert.equal(first.status, 0, first.stderr);
    const setupSessions = join(setup.home, "sessions");
    const [log] = listSessionFiles(setupSessions);
    addLookAlikes(setupSessions);
    mock.enqueue({ blocks: [{ kind: "text", text: "two" }] });
    const second = await runExec([...model, "--continue", "again"], setup);
    assert.equal(second.status, 0, second.stderr);
    assert.equal(second.stdout, "two\n");
    assert.deepEqual(listSessionFiles(setupSessions), [log]);
    assert.equal(readdirSync(dirname(log!)).length, 3, "the log, the directory and the loop");
  });
});

describe("terminal control sequences from a log", () => {
  const HOSTILE = "\x1b]0;PWNED\x07\x1b[2J";
  const SHOWN = "\\x1b]0;PWNED\\x07\\x1b[2J";
  /** Any control character a terminal acts on (newline and tab aside). */
  // biome-ignore lint/suspicious/noControlCharactersInRegex: looking for control characters
  const RAW_CONTROL = /[\x00-\x08\x0b-\x1f\x7f]/;

  function hostileSession() {
    const writer = SessionWriter.create(sessions, { ...startPayload, cwd: `/w/\x1b[31mred` });
    writer.append({ type: "user/message", text: `please ${HOSTILE} now` });
    writer.append({ type: "turn/start", turn: 0 });
    writer.append({
      type: "assistant/chunk",
      turn: 0,
      step: 0,
      block: 0,
      kind: "text",
      delta: "a",
    });
    writer.append({
      type: "assistant/chunk",
      turn: 0,
      step: 0,
      block: 0,
      kind: "text",
      delta: HOSTILE,
    });
    writer.close();
    return { id: writer.id };
  }

  it("`sessions list` shows them as visible escapes", () => {
    const { id } = hostileSession();
    const run = cli("sessions", "list");
    assert.equal(run.status, 0, run.stderr);
    assert.doesNotMatch(run.stdout, RAW_CONTROL);
    assert.match(run.stdout, new RegExp(`^${id.slice(-8)} `, "m"));
    assert.ok(run.stdout.includes(`/w/\\x1b[31mred  please ${SHOWN} now`), run.stdout);
  });

  it("`sessions show` shows them as visible escapes; --json keeps the text exactly", () => {
    const { id } = hostileSession();
    const run = cli("sessions", "show", id);
    assert.equal(run.status, 0, run.stderr);
    assert.doesNotMatch(run.stdout, RAW_CONTROL);
    assert.ok(run.stdout.includes(`  cwd       /w/\\x1b[31mred\n`), run.stdout);
    assert.ok(run.stdout.includes(`user/message: please ${SHOWN} now\n`), run.stdout);
    assert.ok(run.stdout.includes(`text: a${SHOWN}\n`), run.stdout);
    const json = JSON.parse(cli("sessions", "show", id, "--json").stdout);
    assert.equal(json.events[1].text, `please ${HOSTILE} now`);
  });

  it("escapes C0, DEL and C1 controls but keeps newline, tab and other text", () => {
    assert.equal(terminalSafe("a\tb\nc\r\x00\x7f\u009bé✓"), "a\tb\nc\\x0d\\x00\\x7f\\x9bé✓");
  });
});

describe("sessions verify of a missing log", () => {
  it("names the path in one line and exits 2", () => {
    const run = cli("sessions", "verify", "/nonexistent.jsonl");
    assert.equal(run.status, 2);
    assert.equal(run.stderr, "codewhale: no session log at /nonexistent.jsonl\n");
    assert.equal(run.stdout, "");
  });

  it("treats a directory named like a log the same way", () => {
    const { directory } = addLookAlikes(sessions);
    const run = cli("sessions", "verify", directory);
    assert.equal(run.status, 2);
    assert.equal(run.stderr, `codewhale: no session log at ${directory}\n`);
  });
});

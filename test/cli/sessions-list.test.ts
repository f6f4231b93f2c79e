// `codewhale sessions list` as a person reads it, through the built CLI over logs written by
// the real writer: a table with a header and aligned columns, local times of the last activity
// (newest first), one-line escaped titles, turns, cost and workspace; the default scope (this
// directory and below inside a project, everything outside one), --cwd, --all and --limit; and
// short ids that differ between sessions minted together, accepted wherever an id is.
import assert from "node:assert/strict";
import { mkdirSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, describe, it } from "node:test";
import { SessionWriter } from "../../src/session/writer.ts";
import { runCli } from "../support/cli.ts";
import { markRepository } from "../support/git-marker.ts";
import { sampleTurn, startPayload, tempDir } from "../support/session-fixtures.ts";

let home = "";
let sessions = "";
let project = "";

function cli(args: string[], cwd = home, env: Record<string, string> = {}) {
  return runCli(args, { env: { CODEWHALE_HOME: home, TZ: "UTC", ...env }, cwd });
}

/** A closed session started in `cwd` whose first prompt is `prompt`. */
function session(cwd: string, prompt = "list the files", turns = 1) {
  const writer = SessionWriter.create(sessions, { ...startPayload, cwd });
  for (let turn = 0; turn < turns; turn++) {
    for (const event of sampleTurn(turn)) {
      writer.append(event.type === "user/message" ? { ...event, text: prompt } : event);
    }
  }
  writer.close();
  return { id: writer.id, path: writer.path };
}

beforeEach(() => {
  home = realpathSync(tempDir("cw-list-home-"));
  sessions = join(home, "sessions");
  project = join(home, "proj");
  markRepository(project);
  mkdirSync(join(project, "src"), { recursive: true });
});

describe("sessions list as a table", () => {
  it("has a header, aligned columns, local times newest activity first, turns, cost and workspace", () => {
    const older = session(project, "first task", 2);
    const newer = session(join(project, "src"), "second task");
    // The older session gets the newest activity: it is listed first.
    const { writer } = SessionWriter.resume(older.path);
    writer.append({ type: "user/message", text: "later" });
    writer.close();
    const run = cli(["sessions", "list"], project, { TZ: "Asia/Kolkata" });
    assert.equal(run.status, 0, run.stderr);
    const lines = run.stdout.trimEnd().split("\n");
    assert.match(lines[0]!, /^ID {8}LAST ACTIVE {7}TURNS {4}COST {2}WORKSPACE {2}TITLE$/);
    const json = JSON.parse(cli(["sessions", "list", "--json"], project).stdout) as Array<{
      id: string;
      lastActivity: string;
    }>;
    assert.deepEqual(
      json.map((s) => s.id),
      [older.id, newer.id],
    );
    const kolkata = (iso: string) =>
      new Date(Date.parse(iso) + 330 * 60_000).toISOString().slice(0, 16).replace("T", " ");
    assert.equal(
      lines[1],
      `${older.id.slice(-8)}  ${kolkata(json[0]!.lastActivity)}      2  <$0.01  .          first task`,
    );
    assert.equal(
      lines[2],
      `${newer.id.slice(-8)}  ${kolkata(json[1]!.lastActivity)}      1  <$0.01  src        second task`,
    );
    assert.match(lines[3]!, /^\(sessions of .*proj and below; --all lists every session\)$/);
  });

  it("puts a title on one line, escapes control characters and bounds its width", () => {
    const prompt = `fix\nthe \x1b]0;owned\x07 bug ${"word ".repeat(40)}`;
    session(project, prompt);
    const run = cli(["sessions", "list"], project);
    const row = run.stdout.split("\n")[1]!;
    // biome-ignore lint/suspicious/noControlCharactersInRegex: looking for control characters
    assert.doesNotMatch(row, /[\x00-\x1f\x7f]/);
    assert.ok(row.includes("fix the \\x1b]0;owned\\x07 bug word"), row);
    assert.ok(row.endsWith("…"), row);
    assert.equal([...row.slice(row.indexOf("fix"))].length, 60);
  });

  it("shows a bidi override in a title as an escape, so the row reads as it was written", () => {
    session(project, "deploy \u202egnp.exe\u202c now");
    const row = cli(["sessions", "list"], project).stdout.split("\n")[1]!;
    assert.doesNotMatch(row, /[\u202a-\u202e\u2066-\u2069]/);
    assert.ok(row.includes("deploy \\u202egnp.exe\\u202c now"), row);
  });

  it("shows a session's /title in place of its first prompt, and --json carries it", () => {
    const { path } = session(project, "the first prompt");
    const { writer } = SessionWriter.resume(path);
    writer.append({ type: "session/title", title: "Release checklist" });
    writer.close();
    const row = cli(["sessions", "list"], project).stdout.split("\n")[1]!;
    assert.ok(row.endsWith("  Release checklist"), row);
    const [listed] = JSON.parse(cli(["sessions", "list", "--json"], project).stdout);
    assert.equal(listed.title, "Release checklist");
    assert.equal(listed.firstPrompt, "the first prompt");
  });

  it("aligns columns and bounds titles by terminal columns, wide characters counted twice", () => {
    const wide = join(project, "文档");
    mkdirSync(wide);
    session(wide, "修复".repeat(40));
    session(project, "plain title");
    const lines = cli(["sessions", "list"], project).stdout.split("\n");
    const [cjk, plain] = [
      lines.find((l) => l.includes("修复"))!,
      lines.find((l) => l.includes("plain"))!,
    ];
    // "文档" takes four columns: the title column starts at the same column in both rows.
    const columns = (text: string) => [...text].reduce((n, c) => n + (c >= "\u2e80" ? 2 : 1), 0);
    assert.equal(
      columns(cjk.slice(0, cjk.indexOf("修"))),
      columns(plain.slice(0, plain.indexOf("plain"))),
    );
    // The 160-column title is cut to the 60 columns a pipe gets, ending in "…".
    const title = cjk.slice(cjk.indexOf("修"));
    assert.ok(title.endsWith("…"), title);
    assert.ok(columns(title) <= 60 && columns(title) >= 59, String(columns(title)));
  });

  it("--json keeps its fields and adds short id, last activity, turns, tokens and cost", () => {
    const { id } = session(project);
    const [listed] = JSON.parse(cli(["sessions", "list", "--json"], project).stdout);
    for (const key of ["id", "path", "started", "cwd", "model", "firstPrompt", "events", "bytes"]) {
      assert.ok(key in listed, key);
    }
    assert.equal(listed.shortId, id.slice(-8));
    assert.equal(listed.turns, 1);
    assert.equal(listed.tokens, 15);
    assert.equal(listed.cost, 0.0001);
  });
});

describe("sessions list scope", () => {
  it("inside a project lists this directory and below; --all and --cwd widen or move it", () => {
    const root = session(project, "at the root");
    const sub = session(join(project, "src"), "in src");
    const away = session("/elsewhere", "elsewhere");
    const ids = (args: string[], cwd: string) =>
      (
        JSON.parse(cli(["sessions", "list", "--json", ...args], cwd).stdout) as Array<{
          id: string;
        }>
      ).map((s) => s.id);
    assert.deepEqual(ids([], join(project, "src")), [sub.id]);
    assert.deepEqual(ids([], project), [sub.id, root.id]);
    assert.deepEqual(ids(["--all"], project), [away.id, sub.id, root.id]);
    assert.deepEqual(ids(["--cwd", join(project, "src")], home), [sub.id]);
    // Outside any project: every session.
    assert.deepEqual(ids([], home), [away.id, sub.id, root.id]);
    const none = cli(["sessions", "list"], join(project, "src"));
    assert.match(none.stdout, /in src/);
  });

  it("--limit shows the newest and says how many it left out", () => {
    session(project, "one");
    session(project, "two");
    const third = session(project, "three");
    const run = cli(["sessions", "list", "--limit", "1"], project);
    assert.equal(run.status, 0, run.stderr);
    const lines = run.stdout.trimEnd().split("\n");
    assert.ok(lines[1]!.startsWith(third.id.slice(-8)));
    assert.equal(lines[2], "(2 older sessions not shown; --limit 3 shows them)");
  });

  it("rejects a bad --limit and --cwd with --all in one line (exit 2)", () => {
    for (const value of ["0", "x", "-1", "1.5"]) {
      const run = cli(["sessions", "list", "--limit", value], project);
      assert.equal(run.status, 2);
      assert.equal(run.stderr, `codewhale: --limit must be a positive integer, got "${value}"\n`);
    }
    const both = cli(["sessions", "list", "--all", "--cwd", project], project);
    assert.equal(both.status, 2);
    assert.equal(both.stderr, "codewhale: use --cwd or --all, not both\n");
  });
});

describe("short session ids", () => {
  it("differ between sessions minted together and are accepted by show and path", () => {
    const a = session(project);
    const b = session(project);
    assert.equal(a.id.slice(0, 8), b.id.slice(0, 8), "minted in the same minute");
    assert.notEqual(a.id.slice(-8), b.id.slice(-8));
    const shown = cli(["sessions", "show", b.id.slice(-8)], project);
    assert.equal(shown.status, 0, shown.stderr);
    assert.match(shown.stdout, new RegExp(`^session ${b.id}`, "m"));
    assert.equal(cli(["sessions", "path", a.id.slice(-8).toUpperCase()]).stdout, `${a.path}\n`);
  });

  it("an ambiguous id is one error line naming the candidates (exit 2)", () => {
    const a = session(project);
    const b = session(project);
    const prefix = a.id.slice(0, 4);
    const run = cli(["sessions", "show", prefix]);
    assert.equal(run.status, 2);
    assert.equal(
      run.stderr,
      `codewhale: "${prefix}" matches 2 sessions (${b.id}, ${a.id}); give more of the id\n`,
    );
  });
});

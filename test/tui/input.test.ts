// The input half of the interactive terminal end to end (in-process, virtual-chat.ts, against a
// loopback mock provider): the prompt history across sessions (Up, Ctrl-R, stored redacted and
// private), Shift+Tab through the permission modes, `@path` completion, `!command`,
// user-defined slash commands and the session commands (/resume, /sessions, /export, …).
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { readSession } from "../../src/session/reader.ts";
import { startMockProvider } from "../support/mock-provider/index.ts";
import { execEnv, fakeKey } from "../support/provider-env.ts";
import { logFiles, loggedEvents, ofType, say, startVirtual } from "../support/virtual-chat.ts";

const text = (value: string) => ({ blocks: [{ kind: "text" as const, text: value }] });

describe("codewhale's input editor in a terminal", { concurrency: 3 }, () => {
  it("keeps prompts across sessions, redacted and private; Up and Ctrl-R find them", async (t) => {
    const mock = await startMockProvider();
    t.after(() => mock.close());
    const setup = execEnv(mock);
    const token = randomBytes(12).toString("hex");
    setup.env = { ...setup.env, DEPLOY_TOKEN: token };
    const pasted = fakeKey("openai");
    const first = await startVirtual(t, [], { mock, setup });
    mock.enqueue(text("one"), text("two"));
    say(first.screen, "alpha prompt about parsing");
    await first.screen.waitFor("one");
    say(first.screen, `use ${pasted} and ${token} please`);
    await first.screen.waitFor("two");
    first.screen.keys("C-d");
    await first.screen.waitFor("EXITED 0");

    const file = join(setup.home, "history.jsonl");
    assert.equal(statSync(file).mode & 0o777, 0o600, "only the user reads the history");
    const stored = readFileSync(file, "utf8");
    assert.match(stored, /alpha prompt about parsing/);
    assert.ok(!stored.includes(pasted), "a pasted key is not stored in plain text");
    assert.ok(!stored.includes(token), "a credential from the environment is not stored");
    assert.match(stored, /use \S+ and \S+ please/);

    const second = await startVirtual(t, [], { mock, setup });
    second.screen.keys("Up");
    await second.screen.waitFor(/use .* please/);
    second.screen.keys("C-u");
    second.screen.type("kept draft");
    second.screen.keys("C-r");
    await second.screen.waitFor("search history");
    second.screen.type("alpha");
    await second.screen.waitFor(/^\s+alpha prompt about parsing$/m);
    second.screen.keys("Escape");
    // Esc leaves the search, the draft as it was.
    await second.screen.waitFor(/^(?![\s\S]*search history)[\s\S]*kept draft/);
    second.screen.keys("C-u");
    second.screen.keys("C-r");
    await second.screen.waitFor("search history");
    second.screen.type("pars");
    await second.screen.waitFor(/^\s+alpha prompt about parsing$/m);
    second.screen.keys("Enter");
    mock.enqueue(text("three"));
    second.screen.keys("Enter");
    const shown = await second.screen.waitFor("three");
    assert.doesNotMatch(shown, /search history/, "Enter took the match and closed the search");
    const prompts = logFiles(setup.home)
      .flatMap((file) => readSession(file).events)
      .filter((event) => event.type === "user/message")
      .map((event) => (event.type === "user/message" ? event.text : ""));
    assert.equal(prompts.filter((p) => p === "alpha prompt about parsing").length, 2);
  });

  it("Shift+Tab cycles the permission mode, shown in the status line, never into bypass", async (t) => {
    const { screen, mock, setup } = await startVirtual(t);
    writeFileSync(join(setup.workspace, "notes.txt"), "old line\n");
    screen.keys("BTab");
    await screen.waitFor("permission mode: accept-edits");
    assert.match(screen.screen(), /mode accept-edits · /);
    const input = { path: "notes.txt", old_string: "old line", new_string: "new line" };
    mock.enqueue(
      { blocks: [{ kind: "tool", id: "toolu_1", name: "edit", input }] },
      text("edited"),
    );
    say(screen, "fix the note");
    await screen.waitFor("edited");
    assert.equal(readFileSync(join(setup.workspace, "notes.txt"), "utf8"), "new line\n");
    screen.keys("BTab");
    await screen.waitFor("mode plan · ");
    screen.keys("BTab");
    await screen.waitFor("mode default · ");
    assert.doesNotMatch(screen.screen(), /bypass/);
  });

  it("completes @path from the workspace's files, never ignored ones or outside it", async (t) => {
    const mock = await startMockProvider();
    t.after(() => mock.close());
    const setup = execEnv(mock);
    const ws = setup.workspace;
    mkdirSync(join(ws, "src"));
    mkdirSync(join(ws, "build"));
    writeFileSync(join(ws, ".gitignore"), "build/\n");
    writeFileSync(join(ws, "src", "zebra-main.ts"), "export {};\n");
    writeFileSync(join(ws, "build", "zebra-out.js"), "");
    const outside = mkdtempSync(join(tmpdir(), "cw-outside-"));
    writeFileSync(join(outside, "zebra-secret.txt"), "secret\n");
    symlinkSync(join(outside, "zebra-secret.txt"), join(ws, "zebra-link.txt"));
    symlinkSync(outside, join(ws, "zebra-dir"));
    const { screen } = await startVirtual(t, [], { mock, setup });
    screen.type("look at @zebra");
    const offered = await screen.waitFor("src/zebra-main.ts");
    assert.doesNotMatch(offered, /zebra-out/, "a .gitignored file is not offered");
    assert.doesNotMatch(offered, /zebra-link|zebra-dir|zebra-secret/, "no symlink out");
    screen.keys("Tab");
    await screen.waitFor("look at @src/zebra-main.ts");
    screen.keys("C-u");
    screen.type("@../");
    await screen.waitFor("@../");
    screen.type("cw");
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.doesNotMatch(screen.screen(), /cw-outside|cw-exec/, "nothing above the workspace");
  });

  it("!command runs the user's command, shows it redacted, and the next turn reads it", async (t) => {
    const { screen, mock, setup } = await startVirtual(t);
    const key = fakeKey("openai");
    writeFileSync(join(setup.workspace, "leak.txt"), `token ${key}\n`);
    say(screen, "!echo shell-said-hello && cat leak.txt");
    const shown = await screen.waitFor("[exit code 0]");
    assert.match(shown, /! echo shell-said-hello && cat leak\.txt/);
    assert.match(shown, /^\s+shell-said-hello$/m);
    assert.ok(!shown.includes(key), "the output is redacted on screen");
    mock.enqueue(text("I see the output"));
    say(screen, "what did it print?");
    await screen.waitFor("I see the output");
    const sent = JSON.stringify(mock.requests.at(-1)?.body);
    assert.match(sent, /shell-said-hello/, "the model reads the command's output");
    assert.ok(sent.indexOf("shell-said-hello") < sent.indexOf("what did it print?"));
    const notes = ofType(loggedEvents(setup.home), "context/note");
    assert.equal(notes.length, 1);
    assert.equal(notes[0]?.source, "user:shell");
    assert.match(
      notes[0]?.text ?? "",
      /^\$ echo shell-said-hello && cat leak\.txt\nshell-said-hello\n/,
    );
    assert.ok(!JSON.stringify(notes).includes(key), "the log holds it redacted");
  });

  it("!command waits for a running turn: refused while one runs, nothing run", async (t) => {
    const { screen, mock, setup } = await startVirtual(t);
    mock.enqueue({
      ...text("a slow answer that streams for a long time"),
      delayMs: 300,
      chunkSize: 2,
    });
    say(screen, "go slowly");
    await screen.waitFor("Esc to cancel");
    say(screen, "!touch made-by-shell");
    await screen.waitFor("a shell command runs between turns");
    screen.keys("Escape");
    await screen.waitFor("cancelled");
    assert.equal(existsSync(join(setup.workspace, "made-by-shell")), false);
    assert.equal(ofType(loggedEvents(setup.home), "context/note").length, 0);
  });

  it("runs a project's /command as prompt text only, listed with its source", async (t) => {
    const mock = await startMockProvider();
    t.after(() => mock.close());
    const setup = execEnv(mock);
    const dir = join(setup.workspace, ".codewhale", "commands");
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, "explain.md"),
      "---\ndescription: Explain some code\nargument-hint: <what>\n---\n!touch pwned\nExplain $ARGUMENTS briefly.\n",
    );
    const { screen } = await startVirtual(t, [], { mock, setup });
    screen.type("/expl");
    await screen.waitFor("Explain some code (project)");
    screen.keys("C-u");
    screen.type("/help");
    // The completion menu follows the typing; an Enter before it drops /explain takes that pick.
    for (const until = Date.now() + 10_000; screen.screen().includes("Explain some code"); ) {
      if (Date.now() > until) throw new Error(`the completion menu stayed:\n${screen.screen()}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    screen.keys("Enter");
    await screen.waitFor("/explain <what>  Explain some code (project)");
    mock.enqueue(text("explained"));
    say(screen, "/explain the parser");
    await screen.waitFor("explained");
    const [prompt] = ofType(loggedEvents(setup.home), "user/message");
    assert.equal(prompt?.text, "!touch pwned\nExplain the parser briefly.");
    assert.equal(existsSync(join(setup.workspace, "pwned")), false, "nothing in it ran");
    assert.equal(ofType(loggedEvents(setup.home), "context/note").length, 0);
  });

  it("/title, /sessions, /stats, /verify and /export speak for the stored sessions", async (t) => {
    const { screen, mock, setup } = await startVirtual(t);
    mock.enqueue(text("answered"));
    say(screen, "a prompt worth exporting");
    await screen.waitFor("answered");
    say(screen, "/title  the   walrus papers ");
    await screen.waitFor("session named: the walrus papers");
    say(screen, "/sessions");
    await screen.waitFor(/ID\s+LAST ACTIVE\s+TURNS/);
    assert.match(screen.screen(), /\s{2}the walrus papers$/m);
    const titles = ofType(loggedEvents(setup.home), "session/title");
    assert.deepEqual(
      titles.map((e) => e.title),
      ["the walrus papers"],
    );
    say(screen, "/stats");
    await screen.waitFor(/TURN\s+REQUESTS\s+COST/);
    say(screen, "/verify");
    await screen.waitFor("chain intact");
    say(screen, "/export html session.html");
    await screen.waitFor("exported canonical html");
    const html = readFileSync(join(setup.workspace, "session.html"), "utf8");
    assert.match(html, /a prompt worth exporting/);
    assert.ok(existsSync(join(setup.workspace, "session.html.receipt.json")));
    say(screen, "/export");
    await screen.waitFor("exported canonical md");
    const [log] = logFiles(setup.home);
    const id = ofType(loggedEvents(setup.home), "session/start")[0]?.session_id ?? "";
    assert.ok(log && existsSync(join(setup.workspace, `codewhale-${id.slice(0, 8)}.md`)));
    say(screen, `/export md ${join(setup.home, "sessions", "inside.md")}`);
    await screen.waitFor(/sessions directory|session log/);
  });

  it("/resume picks an earlier session by search, this project's first, and goes on in it", async (t) => {
    const mock = await startMockProvider();
    t.after(() => mock.close());
    const setup = execEnv(mock);
    const first = await startVirtual(t, [], { mock, setup });
    mock.enqueue(text("first answer"));
    say(first.screen, "the walrus question");
    await first.screen.waitFor("first answer");
    say(first.screen, "/title tusk research");
    await first.screen.waitFor("session named: tusk research");
    first.screen.keys("C-d");
    await first.screen.waitFor("EXITED 0");
    const second = await startVirtual(t, [], { mock, setup });
    mock.enqueue(text("second answer"));
    say(second.screen, "an unrelated prompt");
    await second.screen.waitFor("second answer");
    say(second.screen, "/resume");
    await second.screen.waitFor("resume a session");
    // The picker shows a named session by its name, and finds it by it.
    second.screen.type("tusk");
    await second.screen.waitFor(/→.*tusk research/);
    second.screen.keys("Enter");
    const shown = await second.screen.waitFor("resumed session");
    assert.match(shown, /› the walrus question/);
    assert.doesNotMatch(shown, /an unrelated prompt/, "the other session's transcript is gone");
    mock.enqueue(text("back in the first"));
    say(second.screen, "carry on");
    await second.screen.waitFor("back in the first");
    const logs = logFiles(setup.home).map((file) => readSession(file).events);
    assert.equal(logs.length, 2);
    const walrus = logs.find((events) => JSON.stringify(events).includes("the walrus question"));
    const prompts = walrus
      ?.filter((e) => e.type === "user/message")
      .map((e) => (e.type === "user/message" ? e.text : ""));
    assert.deepEqual(prompts, ["the walrus question", "carry on"]);
  });
});

// The MCP servers' prompts and resources in the in-process terminal (the SDK-built test
// server over stdio, the loopback mock): `/mcp__t__review` is offered by completion (also to a
// `/mcp__t` typed before the server listed its prompts, once they arrive) and /help,
// a missing argument is one line, and it sends the prompt's text as the user's prompt;
// `@t:` completes the server's resources, and the attached one reaches the model before the
// prompt, recorded as a `user:attach` note with its escapes stripped and its token redacted;
// a resource that does not come is shown as awaited, and Esc stops it with nothing sent.
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { testServerPath } from "../support/mcp-servers.ts";
import { fakeGithubToken } from "../support/mcp-test-server.ts";
import {
  answer,
  loggedEvents,
  ofType,
  say,
  startVirtual,
  waitUntil,
} from "../support/virtual-chat.ts";

describe("the interactive terminal: MCP prompts and resources", {}, () => {
  it("/mcp__t__review runs the server's prompt; @t:uri attaches a resource, policed", async (t) => {
    const secret = fakeGithubToken();
    const toml = [
      "[mcp_servers.t]",
      `command = ${JSON.stringify(process.execPath)}`,
      `args = [${JSON.stringify(testServerPath())}]`,
      `env = { MCP_TEST_SECRET = ${JSON.stringify(secret)} }`,
      // The session (and so its servers) opens once this hook sees the release file.
      "[[hooks.SessionStart]]",
      `command = ${JSON.stringify(`while [ ! -e release ]; do sleep 0.02; done`)}`,
      "timeout_ms = 30000",
    ].join("\n");
    const { screen, mock, setup } = await startVirtual(t, [], { toml });
    // Typed before the server lists its prompts: the menu offers them once they arrive.
    screen.type("/mcp__t");
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.doesNotMatch(screen.screen(), /Review a file/, "no prompts before the session opens");
    writeFileSync(join(setup.workspace, "release"), "");
    await screen.waitFor("Review a file. (mcp t)");
    screen.keys("C-u");
    screen.type("/help");
    await waitUntil(screen, (text) => !text.includes("Review a file. (mcp t)"));
    screen.keys("Enter");
    const help = await screen.waitFor("/mcp__t__review <file>  Review a file. (mcp t)");
    assert.match(help, /@server:uri: attach an MCP resource \(t\)/);
    say(screen, "/mcp__t__review");
    await screen.waitFor("/mcp__t__review needs file: /mcp__t__review <file>");
    mock.enqueue(answer("reviewed it"));
    say(screen, "/mcp__t__review src/app.ts");
    await screen.waitFor("reviewed it");
    // The resources of t after `@t:`, fuzzily matched; Tab takes the one shown first.
    screen.type("what does @t:secr");
    await screen.waitFor("@t:test://notes/secret.txt");
    screen.keys("Tab");
    await screen.waitFor("what does @t:test://notes/secret.txt");
    mock.enqueue(answer("it is classified"));
    screen.type("say?");
    screen.keys("Enter");
    await screen.waitFor("it is classified");
    const events = loggedEvents(setup.home);
    const prompts = ofType(events, "user/message").map((event) => event.text);
    assert.deepEqual(prompts, [
      "Review src/app.ts carefully.",
      "what does @t:test://notes/secret.txt say?",
    ]);
    const notes = ofType(events, "context/note");
    assert.deepEqual(
      notes.map((note) => note.source),
      ["user:attach"],
    );
    assert.match(
      notes[0]?.text ?? "",
      /^@t:test:\/\/notes\/secret\.txt\nclassified token=\[REDACTED:[^\]]+\]$/,
    );
    const sent = JSON.stringify(mock.requests.at(-1)?.body);
    assert.ok(!sent.includes(secret) && !sent.includes("\\u001b"), "policed for the model too");
    assert.ok(
      sent.indexOf("classified token") < sent.indexOf("say?"),
      "attached before the prompt",
    );
    assert.ok(!JSON.stringify(events).includes(secret), "the log holds it redacted");
    // A server that does not answer: the wait is shown, Esc stops it, the prompt comes back.
    // Typed whole, its resource menu opens (20 ms after the last key): Escape closes it, else
    // an Enter that lands while it is open takes the menu's item instead of sending.
    screen.type("summarise @t:test://notes/slow.txt");
    const slow = (text: string) => text.match(/test:\/\/notes\/slow\.txt/g)?.length ?? 0;
    await waitUntil(screen, (text) => slow(text) === 2);
    screen.keys("Escape");
    await waitUntil(screen, (text) => slow(text) === 1);
    screen.keys("Enter");
    await screen.waitFor("attaching @t:test://notes/slow.txt… (Esc stops)");
    screen.keys("Escape");
    await screen.waitFor("stopped; the prompt was not sent (it is back in the editor)");
    await waitUntil(screen, (text) => /^ summarise @t:test:\/\/notes\/slow\.txt/m.test(text));
    const after = loggedEvents(setup.home);
    assert.equal(ofType(after, "user/message").length, 2, "nothing sent");
    assert.equal(ofType(after, "context/note").length, 1, "nothing attached");
  });
});

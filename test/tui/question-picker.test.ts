// A question the model asks (`ask_user`) in the interactive terminal (in-process, a loopback
// mock): the picker shows the question and its options, a digit answers, and the model reads
// the answer; free text is typed when the question allows it.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { startVirtual } from "../support/virtual-chat.ts";

const question = (freeText: boolean) => ({
  blocks: [
    {
      kind: "tool" as const,
      id: "toolu_q",
      name: "ask_user",
      input: { question: "Which database?", options: ["Postgres", "SQLite"], free_text: freeText },
    },
  ],
});

describe("the question picker", () => {
  it("shows the question and its options; a digit picks, and the model reads the answer", async (t) => {
    const { screen, mock } = await startVirtual(t);
    mock.enqueue(question(false), { blocks: [{ kind: "text", text: "Going with it." }] });
    screen.type("set up storage");
    screen.keys("Enter");
    await screen.waitFor("Which database?");
    await screen.waitFor("2. SQLite");
    await screen.waitFor("3. Don't answer");
    screen.type("2");
    await screen.waitFor("Going with it.");
    assert.match(JSON.stringify(mock.requests[1]?.body), /The user answered: SQLite/);
  });

  it("free text: the user types an answer of their own", async (t) => {
    const { screen, mock } = await startVirtual(t);
    mock.enqueue(question(true), { blocks: [{ kind: "text", text: "Noted." }] });
    screen.type("set up storage");
    screen.keys("Enter");
    await screen.waitFor("3. Type your own answer");
    screen.type("3");
    await screen.waitFor("Your answer");
    screen.type("MySQL 8");
    screen.keys("Enter");
    await screen.waitFor("Noted.");
    assert.match(JSON.stringify(mock.requests[1]?.body), /The user answered: MySQL 8/);
  });
});

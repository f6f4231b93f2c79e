// `/effort` in the interactive terminal (in-process, a loopback mock): `--effort` is the first
// request's thinking budget; `/effort low` changes the next request's and the transcript says
// so; `/effort` alone opens a picker of the levels; a word that is none of them is refused.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { startVirtual } from "../support/virtual-chat.ts";

type Body = { thinking?: { budget_tokens: number } };

describe("/effort in the terminal", () => {
  it("--effort, /effort <level> and the picker set the next request's thinking", async (t) => {
    const { screen, mock } = await startVirtual(t, ["--effort", "high"]);
    mock.enqueue(
      { blocks: [{ kind: "text", text: "answer one" }] },
      { blocks: [{ kind: "text", text: "answer two" }] },
      { blocks: [{ kind: "text", text: "answer three" }] },
    );
    screen.type("first");
    screen.keys("Enter");
    await screen.waitFor("answer one");
    assert.equal((mock.requests[0]!.body as Body).thinking?.budget_tokens, 32_768);
    screen.type("/effort extreme");
    screen.keys("Enter");
    await screen.waitFor(/\/effort takes one of off, minimal, low, medium, high; now high/);
    screen.type("/effort low");
    screen.keys("Enter");
    await screen.waitFor("effort: low");
    screen.type("second");
    screen.keys("Enter");
    await screen.waitFor("answer two");
    assert.equal((mock.requests[1]!.body as Body).thinking?.budget_tokens, 4096);
    screen.type("/effort");
    screen.keys("Enter");
    await screen.waitFor("reasoning effort");
    await screen.waitFor("low (now)");
    screen.type("off");
    screen.keys("Enter");
    await screen.waitFor("effort: off");
    screen.type("third");
    screen.keys("Enter");
    await screen.waitFor("answer three");
    assert.equal((mock.requests[2]!.body as Body).thinking, undefined);
  });
});

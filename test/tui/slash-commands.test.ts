// Slash commands are parsed into a known name and its argument; anything else is one line
// naming /help.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseSlash } from "../../src/tui/slash-commands.ts";

describe("slash commands", () => {
  it("splits the command from its argument", () => {
    assert.deepEqual(parseSlash("/model  openai/gpt-5 "), {
      ok: true,
      name: "model",
      argument: "openai/gpt-5",
    });
    assert.deepEqual(parseSlash("/thinking"), { ok: true, name: "thinking", argument: "" });
    assert.deepEqual(parseSlash("/exit"), { ok: true, name: "quit", argument: "" });
  });

  it("names /help for an unknown command", () => {
    assert.deepEqual(parseSlash("/bogus x"), {
      ok: false,
      message: "unknown command /bogus (see /help)",
    });
  });
});

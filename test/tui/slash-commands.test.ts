// Slash commands are parsed into a known name and its argument; anything else is one line
// naming /help.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { nextMode, parseSlash } from "../../src/tui/slash-commands.ts";

const MODES = ["default", "accept-edits", "plan", "bypass"] as const;

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
      given: "bogus",
      argument: "x",
      message: "unknown command /bogus (see /help)",
    });
  });

  it("cycles the modes with Shift+Tab, bypass only for a session started in it", () => {
    assert.equal(nextMode(MODES, "default", "default"), "accept-edits");
    assert.equal(nextMode(MODES, "plan", "default"), "default");
    assert.equal(nextMode(MODES, "plan", "bypass"), "bypass");
    assert.equal(nextMode(MODES, "bypass", "bypass"), "default");
  });
});

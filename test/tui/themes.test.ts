// Themes (docs/terminal.md#themes), in-process: `auto` paints with the terminal's own ANSI
// colours (no 256-colour codes), `[display] theme = "dark"` with fixed 256-colour ones, and
// `/theme light` switches the palette of what is drawn next.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createTheme } from "../../src/tui/theme.ts";
import { startVirtual } from "../support/virtual-chat.ts";

describe("themes", () => {
  it("auto uses the terminal's own palette (a faint border, no 256-colour code) until /theme dark", async (t) => {
    const { screen } = await startVirtual(t);
    const raw = screen.raw();
    assert.ok(raw.includes("\x1b[2m─"), "the border is drawn faint");
    assert.ok(!raw.includes("\x1b[38;5;"), "no fixed colour");
    screen.type("/theme dark");
    screen.keys("Enter");
    await screen.waitFor("theme: dark");
    assert.ok(screen.raw().includes("\x1b[38;5;245m─"), "the dark theme's grey border");
  });

  it("[display] theme = dark paints fixed colours, and /theme light switches them", async (t) => {
    const { screen } = await startVirtual(t, [], { toml: '[display]\ntheme = "dark"\n' });
    assert.ok(screen.raw().includes("\x1b[38;5;245m─"), "the dark theme's grey border");
    screen.type("/theme light");
    screen.keys("Enter");
    await screen.waitFor("theme: light");
    const raw = screen.raw();
    const light = raw.lastIndexOf("\x1b[38;5;243m─");
    assert.ok(light > raw.lastIndexOf("\x1b[38;5;245m─"), "the border is drawn again, light");
  });

  it("a code block is highlighted in the theme's colours", () => {
    const code = "const answer = 42; // the answer";
    const dark = createTheme(true, "dark").markdown.highlightCode?.(code, "js").join("\n") ?? "";
    const auto = createTheme(true, "auto").markdown.highlightCode?.(code, "js").join("\n") ?? "";
    assert.ok(dark.includes("\x1b[38;5;176mconst"), "dark: the keyword in its fixed colour");
    assert.ok(auto.includes("\x1b[32mconst"), "auto: the keyword in the terminal's green");
  });
});

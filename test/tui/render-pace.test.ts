// The screen keeps up with typing while an answer streams (src/tui/render-pace.ts): a key's
// frame is drawn right after the key, not at pi-tui's next render slot, and a frame that reuses
// the unchanged lines of the last one still puts exactly the right text on the terminal.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Editor, type Terminal, Text, TUI } from "@mariozechner/pi-tui";
import xterm from "@xterm/headless";
import { paceRendering } from "../../src/tui/render-pace.ts";
import { createTheme } from "../../src/tui/theme.ts";

/** A terminal whose output goes to a headless xterm, and whose input the test types. */
function recordingTerminal(columns = 60, rows = 12) {
  const screen = new xterm.Terminal({ cols: columns, rows, allowProposedApi: true });
  let input: ((data: string) => void) | undefined;
  let writes = 0;
  const terminal: Terminal = {
    start: (onInput) => {
      input = onInput;
    },
    stop: () => undefined,
    drainInput: async () => undefined,
    write: (data) => {
      writes++;
      screen.write(data);
    },
    columns,
    rows,
    kittyProtocolActive: false,
    moveBy: () => undefined,
    hideCursor: () => undefined,
    showCursor: () => undefined,
    clearLine: () => undefined,
    clearFromCursor: () => undefined,
    clearScreen: () => undefined,
    setTitle: () => undefined,
    setProgress: () => undefined,
  };
  const text = () =>
    new Promise<string>((resolve) =>
      screen.write("", () => {
        const buffer = screen.buffer.active;
        const lines: string[] = [];
        for (let i = 0; i < buffer.length; i++)
          lines.push(buffer.getLine(i)?.translateToString(true).trimEnd() ?? "");
        resolve(lines.join("\n").trimEnd());
      }),
    );
  return { terminal, type: (data: string) => input?.(data), writes: () => writes, text };
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("render pacing", () => {
  it("draws a key typed while an answer streams at once, not at the next render slot", async () => {
    const term = recordingTerminal();
    const tui = new TUI(term.terminal);
    const pace = paceRendering(tui, term.terminal);
    const answer = new Text("streaming", 0, 0);
    const editor = new Editor(tui, createTheme(false).editor);
    tui.addChild(answer);
    tui.addChild(editor);
    tui.setFocus(editor);
    tui.start();
    await wait(30);
    // A stream delta: a frame now, so pi-tui's next slot is 16 ms away.
    answer.setText("streaming, a delta");
    tui.requestRender();
    await wait(20);
    const before = term.writes();
    answer.setText("streaming, another delta");
    tui.requestRender();
    term.type("k");
    await nextTurn();
    assert.equal(pace.keyFrames(), 1, "one frame drawn for the key");
    assert.ok(term.writes() > before, "written before the render slot");
    assert.match(await term.text(), /streaming, another delta[\s\S]*k/);
    tui.stop();
  });

  it("keys read together make one frame, and a frame reusing unchanged lines is exact", async () => {
    const term = recordingTerminal(40, 30);
    const tui = new TUI(term.terminal);
    const pace = paceRendering(tui, term.terminal);
    const lines = Array.from({ length: 20 }, (_, i) => new Text(`line ${i} of the answer`, 0, 0));
    for (const line of lines) tui.addChild(line);
    const editor = new Editor(tui, createTheme(false).editor);
    tui.addChild(editor);
    tui.setFocus(editor);
    tui.start();
    await wait(30);
    for (const key of "abc") term.type(key);
    await nextTurn();
    assert.equal(pace.keyFrames(), 1);
    // Only line 7 changes; every other line is last frame's, and the screen shows all of them.
    lines[7]?.setText("line 7 changed: 全角 and é");
    tui.requestRender();
    await wait(40);
    const shown = (await term.text()).split("\n");
    for (let i = 0; i < 20; i++) {
      assert.equal(shown[i], i === 7 ? "line 7 changed: 全角 and é" : `line ${i} of the answer`);
    }
    assert.ok(
      shown.some((row) => row.includes("abc")),
      shown.join("\n"),
    );
    tui.stop();
  });
});

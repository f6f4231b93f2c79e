// The emulator path of control-sequence hygiene: when a stream switches to @xterm/headless (and
// when it must not), that a switch mid-stream gives what deciding upfront gives, redraws and the
// alternate screen, rows read out as they scroll (bounded memory), live logs, and hostile input.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { ControlStripper } from "../../src/runner/control-stripper.ts";
import { applyOutputPolicy, createOutputPipeline } from "../../src/runner/index.ts";
import type { TerminalSize } from "../../src/runner/terminal-screen.ts";
import {
  loadTerminalEmulator,
  TerminalScreen,
  terminalEmulatorLoaded,
} from "../../src/runner/terminal-screen.ts";
import { randomSecretValue } from "./support/fake-secrets.ts";
import { normalise, STRAY_CONTROL } from "./support/terminal-corpus.ts";

const POLICY = { maxBytes: 1_000_000, spillToTemp: false, redactSecrets: false };

async function shown(text: string, terminal?: TerminalSize): Promise<string> {
  const pipeline = createOutputPipeline(POLICY, terminal ? { terminal } : {});
  await pipeline.push(Buffer.from(text));
  return (await pipeline.end()).output;
}

/** The whole stream rendered by the emulator from its first byte. */
function upfront(text: string, size: TerminalSize): string {
  const screen = new TerminalScreen(size);
  return screen.write(text) + screen.end();
}

function stripped(text: string, size: TerminalSize, piece: number): string {
  const stripper = new ControlStripper({ terminal: size });
  const bytes = Buffer.from(text);
  let out = "";
  for (let at = 0; at < bytes.length; at += piece)
    out += stripper.push(bytes.subarray(at, at + piece));
  return Buffer.from(out + stripper.end(), "latin1").toString("utf8");
}

describe("terminal emulator path", () => {
  it("does not load the emulator for colour, `\\r` and in-line edits", async () => {
    const output = await shown("\x1b[32mok\x1b[0m\n10%\r100%\nab\bc \x1b[2K\x1b[1Gdone\n");
    assert.equal(output, "ok\n100%\ndone\n");
    assert.equal(terminalEmulatorLoaded(), false);
  });

  it("shows the last frame of a summary redrawn with cursor up and erase", async () => {
    const frame = (n: number) => `passed ${n}\nfailed 0\n`;
    const redraw = "\x1b[2K\x1b[1A\x1b[2K\x1b[1A\x1b[2K\x1b[G";
    const output = await shown(`start\n${frame(1)}${redraw}${frame(2)}${redraw}${frame(3)}`);
    assert.equal(output, "start\npassed 3\nfailed 0\n");
    assert.equal(terminalEmulatorLoaded(), true);
  });

  it("keeps the normal screen and drops what was drawn on the alternate screen", async () => {
    const output = await shown("before\n\x1b[?1049h\x1b[H\x1b[2Jpager page\x1b[?1049lafter\n");
    assert.equal(output, "before\nafter\n");
  });

  it("ends on a full-screen program's last frame below the scrollback, not the rows it hides", async () => {
    const size = { cols: 20, rows: 4, pty: true };
    const lines = Array.from({ length: 6 }, (_, n) => `line ${n + 1}\r\n`).join("");
    const frame = "\x1b[?1049h\x1b[H\x1b[2Jframe 1\x1b[H\x1b[2Jframe 2\r\n~";
    const output = await shown(`${lines}${frame}`, size);
    // A 4-row terminal scrolled lines 1-3 off; 4-6 sit under the frame, where no terminal shows them.
    assert.equal(normalise(output), "line 1\nline 2\nline 3\nframe 2\n~");
  });

  it("keeps what a full-screen clear cleared, above the new screen (as tmux does)", async () => {
    const output = await shown("old 1\nold 2\n\x1b[H\x1b[2Jnew\n");
    assert.equal(output, "old 1\nold 2\nnew\n");
  });

  it("gives the same result whenever the switch happens, however the bytes are split", async () => {
    // Compared as the corpus is scored: lines handed out before the switch keep their tabs and
    // trailing blanks (the fast path), where the emulator has expanded and trimmed them.
    await loadTerminalEmulator();
    const size = { cols: 30, rows: 6 };
    // Lines that wrap, and lines with tabs that stay within the width (past it a terminal stops
    // a tab at the last column, which the tab-expanding comparison does not model).
    const plain = fc.oneof(
      fc.stringMatching(/^[a-z ]{0,70}$/),
      fc.stringMatching(/^[a-z ]{0,6}\t?[a-z ]{0,6}\t?[a-z]{0,5}$/),
    );
    const trigger = fc.constantFrom(
      "\x1b[2A",
      "\x1b[H",
      "\x1b[2J",
      "\x1b[3;1H",
      "\x1b7x\x1b8",
      "\v",
    );
    fc.assert(
      fc.property(
        fc.array(plain, { maxLength: 20 }),
        trigger,
        fc.integer({ min: 1, max: 50 }),
        (lines, move, piece) => {
          const text = `${lines.join("\n")}\n${move}redrawn\n${lines.slice(0, 3).join("\n")}\n`;
          assert.equal(normalise(stripped(text, size, piece)), normalise(upfront(text, size)));
        },
      ),
      { numRuns: 200 },
    );
  });

  it("hands rows out as they scroll off, so a long redraw stream is not held whole", async () => {
    await loadTerminalEmulator();
    const stripper = new ControlStripper({ terminal: { cols: 80, rows: 24 } });
    let early = 0;
    for (let i = 0; i < 2000; i++) {
      early += stripper.push(Buffer.from(`line ${i}\n\x1b[1A\x1b[2Kline ${i} done\n`)).length;
    }
    const rest = stripper.end().length;
    assert.ok(early > 10 * rest, `${early} bytes before the end, ${rest} at the end`);
  });

  it("keeps held lines before a line that grows past 64 KiB without a newline", () => {
    const stripper = new ControlStripper();
    const long = "x".repeat(70_000);
    let out = stripper.push(Buffer.from("first\nsecond\n"));
    for (let at = 0; at < long.length; at += 10_000) {
      out += stripper.push(Buffer.from(long.slice(at, at + 10_000)));
    }
    out += stripper.push(Buffer.from("\nlast\n")) + stripper.end();
    assert.equal(out, `first\nsecond\n${long}\nlast\n`);
  });

  it("writes each line of a live log as it ends, also after the switch", async () => {
    const logged: string[] = [];
    const pipeline = createOutputPipeline(POLICY, {
      sink: async (text) => {
        logged.push(text);
      },
    });
    await pipeline.push(Buffer.from("first\n"));
    assert.equal(logged.join(""), "first\n");
    await pipeline.push(Buffer.from("\x1b[1A\x1b[2Kredrawn\nnext\n"));
    await pipeline.end();
    assert.match(logged.join(""), /^first\n.*redrawn/s);
  });

  it("wraps rows at the terminal's width when it has one, on both paths", async () => {
    const line = "0123456789".repeat(5);
    const size = { cols: 20, rows: 5 };
    const want = "01234567890123456789\n01234567890123456789\n0123456789\n";
    assert.equal(await shown(`${line}\n`, size), want);
    assert.equal(await shown(`${line}\n\x1b[1A\x1b[1B`, size), want);
    assert.equal(await shown(`${"x".repeat(300)}\n\x1b[1A\x1b[1B`), `${"x".repeat(300)}\n`);
  });

  it("redacts a secret longer than the width whole, on both paths (rows are cut after redaction)", async () => {
    const value = randomSecretValue(48);
    const policy = { ...POLICY, redactSecrets: true, terminal: { cols: 20, rows: 5 } };
    for (const text of [`API_KEY=${value}\n`, `API_KEY=${value}\n\x1b[1A\x1b[1B`]) {
      const result = await applyOutputPolicy(text, policy);
      assert.ok(!result.output.includes(value.slice(0, 8)), JSON.stringify(result.output));
      assert.ok(!result.output.includes(value.slice(-8)), JSON.stringify(result.output));
      assert.match(result.output, /REDACTED/);
      assert.ok(result.output.split("\n").every((row) => row.length <= 20));
    }
  });

  it("stays small on hostile cursor moves, scrolls and huge parameters", {
    timeout: 60_000,
  }, async () => {
    const hostile =
      "\x1b[99999;99999H\x1b[999999999S\x1b[999999999L\x1b[1;99999999r\x1b[99999999@x" +
      "\x1b[?1049h\x1b[99999T\x1b[?1049l\x1b[999999999999999999999A" +
      `${"\x1b[1;1H\x1b[2J".repeat(20_000)}end\n`;
    const result = await applyOutputPolicy(hostile, POLICY);
    assert.ok(result.output.length < 50_000, `${result.output.length} bytes`);
    assert.match(result.output, /end\n$/);
    assert.doesNotMatch(result.output, STRAY_CONTROL);
  });
});

// Control-sequence hygiene: colours, cursor moves, `\r` overwrites, backspaces, OSC 8 links,
// escape sequences split across reads and invalid UTF-8; compared with @xterm/headless (a
// real terminal emulator) as the reference for what a terminal finally shows.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import xterm from "@xterm/headless";
import fc from "fast-check";

const { Terminal } = xterm;

import { fromByteString } from "../../src/runner/byte-text.ts";
import { ControlStripper, stripControls } from "../../src/runner/control-stripper.ts";
import { LineRenderer } from "../../src/runner/line-renderer.ts";

const SAMPLES = [
  "\x1b[1;31merror\x1b[0m: \x1b[4mbuild failed\x1b[24m",
  "downloading  10%\rdownloading  55%\rdownloading 100%",
  "12345678\rab",
  "abc\b\bXY",
  "spinner |\x1b[1D/\x1b[1D-\x1b[1Ddone",
  "old text here\r\x1b[Knew",
  "\x1b[2K\x1b[1Gfinal line",
  "col\x1b[10Gten",
  "see \x1b]8;;https://example.com\x07the docs\x1b]8;;\x07 now",
  "title\x1b]0;window title\x1b\\ after",
  "abcdef\x1b[3D\x1b[Xz",
];

async function xtermFinalLine(input: string): Promise<string> {
  const terminal = new Terminal({ cols: 200, rows: 5, allowProposedApi: true });
  await new Promise<void>((resolve) => terminal.write(input, resolve));
  const line = terminal.buffer.active.getLine(0)?.translateToString(true) ?? "";
  terminal.dispose();
  return line;
}

describe("control-sequence stripping", () => {
  it("shows what a terminal finally shows on each line (xterm reference)", async () => {
    for (const sample of SAMPLES) {
      assert.equal(
        stripControls(sample).trimEnd(),
        await xtermFinalLine(sample),
        JSON.stringify(sample),
      );
    }
  });

  it("keeps newlines and tabs, drops other C0 controls, DEL and C1", () => {
    assert.equal(stripControls("a\tb\x00\x07\x7fc\u0085d\u009be\nnext\n"), "a\tbcde\nnext\n");
  });

  it("overwrites `\\r` lines of plain text (the fast path) exactly as the renderer does", () => {
    const line = fc.stringMatching(/^[ -~\t\r]{0,60}$/);
    fc.assert(
      fc.property(line, (text) => {
        const renderer = new LineRenderer();
        renderer.feed(text);
        assert.equal(stripControls(`${text}\n`), `${renderer.take()}\n`);
      }),
      { numRuns: 500 },
    );
  });

  it("keeps characters whose UTF-8 starts like a C1 control (©, °, µ)", () => {
    assert.equal(stripControls("© 2024 · 20°C ± µs\r\n"), "© 2024 · 20°C ± µs\n");
  });

  it("resolves escape sequences split across reads at every byte", () => {
    const input = Buffer.from(
      "pre \x1b[38;5;196mred\x1b[0m \x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\ ✓ 50%\r100%\n",
    );
    const stripper = new ControlStripper();
    let out = "";
    for (const byte of input) out += stripper.push(Buffer.from([byte]));
    out += stripper.end();
    assert.equal(fromByteString(out), "100%red link ✓ 50%\n");
  });

  it("replaces invalid UTF-8 and never splits a character across reads", () => {
    const stripper = new ControlStripper();
    const euro = Buffer.from("€");
    let out = stripper.push(Buffer.concat([Buffer.from("a"), euro.subarray(0, 2)]));
    out += stripper.push(Buffer.concat([euro.subarray(2), Buffer.from([0xff, 0x62, 0x0a])]));
    out += stripper.end();
    assert.equal(fromByteString(out), "a€\ufffdb\n");
  });

  it("keeps memory bounded on a line with no newline, still rendering it", () => {
    const stripper = new ControlStripper();
    let out = "";
    for (let i = 0; i < 100; i++) out += stripper.push(Buffer.from(`${"x".repeat(4000)}\x1b[0m`));
    out += stripper.end();
    assert.equal(out, "x".repeat(400_000));
  });
});

// The grapheme segmenter swapped into pi-tui by the build (src/tui/grapheme-segmenter.ts):
// the same segments as Intl.Segmenter for any text, and no ICU (no Intl object, no
// RGI_Emoji regex) when the terminal UI's bundle loads.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, it } from "node:test";
import { graphemeSegmenter } from "../../src/tui/grapheme-segmenter.ts";
import { repoRoot } from "../support/cli.ts";

const icu = new Intl.Segmenter(undefined, { granularity: "grapheme" });
const split = (
  text: string,
  segmenter: { segment(text: string): Iterable<{ segment: string; index: number }> },
) => [...segmenter.segment(text)].map(({ segment, index }) => [segment, index]);

/** A seeded generator (mulberry32), so a failure names a reproducible case. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Pieces of text a terminal shows: plain, box drawing, and what needs ICU to split right. */
const PIECES = [
  "a",
  "Z",
  " ",
  "\t",
  "\n",
  "\r\n",
  "\r",
  "\x1b",
  "é",
  "·",
  "─",
  "│",
  "╭",
  "▶",
  "→",
  "⠋",
  "…",
  "—",
  "e\u0301",
  "\u00ad",
  "\u200b",
  "\u200d",
  "👍",
  "👍🏽",
  "👩‍💻",
  "🇩🇪",
  "❤️",
  "1️⃣",
  "漢",
  "字",
  "한",
  "\u1100\u1161",
  "ก\u0e31",
  "\u0915\u094d\u0937",
  "\ufe0f",
  "\u2060",
  "\u202e",
  "\u2028",
  "\u02ff",
  "\u0300",
  "\ud83d",
];

describe("the terminal UI's grapheme segmenter", () => {
  it("splits every UTF-16 unit between two letters as Intl.Segmenter does", () => {
    for (let unit = 0; unit < 0x10000; unit++) {
      if (unit >= 0xd800 && unit <= 0xdfff) continue;
      const text = `a${String.fromCharCode(unit)}b`;
      assert.deepEqual(split(text, graphemeSegmenter), split(text, icu), `U+${unit.toString(16)}`);
    }
  });

  it("agrees with Intl.Segmenter on 5,000 seeded strings of terminal text", () => {
    const next = random(20261201);
    for (let n = 0; n < 5000; n++) {
      const length = 1 + Math.floor(next() * 12);
      let text = "";
      for (let i = 0; i < length; i++) text += PIECES[Math.floor(next() * PIECES.length)];
      assert.deepEqual(split(text, graphemeSegmenter), split(text, icu), JSON.stringify(text));
    }
  });

  it("keeps ICU out of loading the bundle: no Intl.Segmenter, no RGI_Emoji regex", () => {
    const probe = `
      const made = [];
      const Segmenter = Intl.Segmenter;
      Intl.Segmenter = class extends Segmenter { constructor(...a) { made.push("Intl.Segmenter"); super(...a); } };
      const NativeRegExp = RegExp;
      globalThis.RegExp = new Proxy(NativeRegExp, { construct(target, args) { if (String(args[0]).includes("RGI_Emoji")) made.push("RGI_Emoji"); return Reflect.construct(target, args); } });
      require(${JSON.stringify(join(repoRoot, "dist/tui.cjs"))});
      process.stdout.write(JSON.stringify(made));
    `;
    const run = spawnSync(process.execPath, ["-e", probe], { encoding: "utf8" });
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(JSON.parse(run.stdout), []);
  });
});

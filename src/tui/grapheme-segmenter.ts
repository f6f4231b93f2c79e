// The grapheme segmenter the terminal UI's library (pi-tui) uses, swapped in by the build
// (scripts/build.mjs): text whose every UTF-16 unit is a grapheme of its own (ASCII, Latin,
// punctuation, box drawing, arrows, Braille) is split without ICU; anything else goes to
// Intl.Segmenter, made on first use. The first Intl object costs ~35 ms on Node 20, which
// the first frame (ASCII, "─", "·") then never pays. Tested against Intl.Segmenter.

/** One segment as Intl.Segmenter yields it (the fields pi-tui reads). */
export interface GraphemeSegment {
  segment: string;
  index: number;
  input: string;
}

let icu: Intl.Segmenter | undefined;

/**
 * True for a UTF-16 unit that never joins its neighbours into one grapheme cluster (UAX #29):
 * controls other than CR, printable ASCII, U+00A0–U+02FF, general punctuation without the
 * zero-width, joiner, bidi and invisible-operator marks, arrows, box drawing, block
 * elements, geometric shapes and Braille.
 */
function standsAlone(unit: number): boolean {
  if (unit < 0x300) return unit !== 0x0d;
  if (unit >= 0x2010 && unit <= 0x2027) return true;
  if (unit >= 0x2030 && unit <= 0x205f) return true;
  if (unit >= 0x2190 && unit <= 0x21ff) return true;
  if (unit >= 0x2500 && unit <= 0x25ff) return true;
  return unit >= 0x2800 && unit <= 0x28ff;
}

function simple(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (!standsAlone(text.charCodeAt(i))) return false;
  return true;
}

export const graphemeSegmenter = {
  segment(text: string): Iterable<GraphemeSegment> {
    if (simple(text)) {
      const segments: GraphemeSegment[] = new Array(text.length);
      for (let i = 0; i < text.length; i++)
        segments[i] = { segment: text[i] as string, index: i, input: text };
      return segments;
    }
    icu ??= new Intl.Segmenter(undefined, { granularity: "grapheme" });
    return icu.segment(text);
  },
};

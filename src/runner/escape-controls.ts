// The one escaper for text from outside codewhale (the model, tools, files and their names,
// MCP servers, config, hooks) wherever a person or a terminal reads it: control characters
// (C0, DEL, C1), bidirectional controls and invisible characters become visible escapes (`ESC`
// as the four characters `\x1b`, U+202E as `\u202e`), so such text is shown, never obeyed and
// never hidden. Every surface (cli, present, acp, tui) and the tools' names and messages use it.

/** C0 controls but tab and newline, DEL, and the C1 controls (0x80–0x9f). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROLS_BUT_LINES = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;
/** Every control character, tab and newline too. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROLS = /[\x00-\x1f\x7f-\x9f]/g;

/**
 * Characters that reorder or hide text: the bidirectional marks, embeddings, overrides and
 * isolates (U+061C, U+200E–F, U+202A–E, U+2066–9), the zero-width and invisible ones (U+200B–D,
 * U+2060–4, U+FEFF, U+180E, U+115F–60, U+3164, U+FFA0, U+FFF9–B), the line and paragraph
 * separators (U+2028–9) and the tag characters (U+E0000–7F). Kept as they are: a zero-width
 * joiner inside an emoji sequence (👩‍💻) and the tags of a flag (🏴 + tags), which only draw.
 */
const HIDDEN = new RegExp(
  [
    "[\\u061c\\u200b\\u200c\\u200e\\u200f\\u2028-\\u202e\\u2060-\\u2064\\u2066-\\u2069]",
    "[\\ufeff\\u180e\\u115f\\u1160\\u3164\\uffa0\\ufff9-\\ufffb]",
    "(?<!\\p{Extended_Pictographic}[\\ufe0f\\u{1f3fb}-\\u{1f3ff}]?)\\u200d",
    "\\u200d(?!\\p{Extended_Pictographic})",
    "(?<!\\u{1f3f4}[\\u{e0020}-\\u{e007e}]*)[\\u{e0000}-\\u{e007f}]",
  ].join("|"),
  "gu",
);

/** Text shown on several lines: control characters, bidi and invisible ones as escapes; tab and newline stay. */
export function terminalSafe(text: string): string {
  return text.replace(CONTROLS_BUT_LINES, escaped).replace(HIDDEN, escaped);
}

/** Text shown on one line (a name, a title, a call): the same, tab and newline escaped too. */
export function terminalSafeLine(text: string): string {
  return text.replace(CONTROLS, escaped).replace(HIDDEN, escaped);
}

function escaped(char: string): string {
  const code = char.codePointAt(0) ?? 0;
  if (code <= 0xff) return `\\x${code.toString(16).padStart(2, "0")}`;
  return code <= 0xffff ? `\\u${code.toString(16).padStart(4, "0")}` : `\\u{${code.toString(16)}}`;
}

/**
 * JSON text (JSON.stringify's) with the characters it leaves as they are (DEL, C1 controls,
 * bidi and invisible ones) as `\u` escapes: the same value, nothing a terminal acts on.
 */
export function jsonSafe(json: string): string {
  return json.replace(CONTROLS_BUT_LINES, jsonEscaped).replace(HIDDEN, jsonEscaped);
}

function jsonEscaped(text: string): string {
  let out = "";
  for (let i = 0; i < text.length; i++)
    out += `\\u${text.charCodeAt(i).toString(16).padStart(4, "0")}`;
  return out;
}

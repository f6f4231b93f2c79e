// The value bash gives a word of a parsed command after quote removal, when it is fixed before
// the command runs: escapes, '…', "…" without expansions, $'…' (ANSI-C, decoded) and their
// concatenations. Anything bash computes at run time (parameter, command and arithmetic
// expansion, globs, braces, a leading `~`) is `undefined`. bash-split.ts calls it per word.
import type { Node } from "web-tree-sitter";

/** The static value of a word node, or undefined when bash computes it at run time. */
export function wordValue(node: Node): string | undefined {
  const parts = node.type === "concatenation" ? kids(node) : [node];
  let value = "";
  let unquoted = "";
  for (const part of parts) {
    const piece = partValue(part);
    if (piece === undefined) return undefined;
    value += piece.value;
    unquoted += piece.quoted ? "Q".repeat(Math.max(1, piece.value.length)) : piece.raw;
  }
  return expandsAtRunTime(unquoted) ? undefined : value;
}

interface Piece {
  value: string;
  /** The unquoted text as written (before escapes are removed), for the glob and brace check. */
  raw: string;
  quoted: boolean;
}

function partValue(node: Node): Piece | undefined {
  const text = node.text;
  switch (node.type) {
    case "word":
    case "number":
    case "variable_name":
    case "command_name":
      if (node.type === "command_name") {
        const inner = node.namedChildren[0];
        return inner ? wordPiece(inner) : undefined;
      }
      return { value: unescapeUnquoted(text), raw: maskEscapes(text), quoted: false };
    case "raw_string":
      return { value: text.slice(1, -1), raw: "", quoted: true };
    case "ansi_c_string": {
      const value = decodeAnsiC(text.slice(2, -1));
      return value === undefined ? undefined : { value, raw: "", quoted: true };
    }
    case "string":
    case "translated_string":
      return doubleQuoted(node);
    default:
      return undefined;
  }
}

function wordPiece(node: Node): Piece | undefined {
  const value = wordValue(node);
  return value === undefined ? undefined : { value, raw: "", quoted: true };
}

/** `"…"` (or `$"…"`) with no expansion inside: its text with `\$ \` \" \\ \newline` unescaped. */
function doubleQuoted(node: Node): Piece | undefined {
  for (const child of kids(node)) {
    if (child.type === '"' || child.type === '$"' || child.type === "$") continue;
    if (child.type !== "string_content") return undefined;
  }
  // The text between the quotes, not the children: the grammar leaves newlines out of them.
  const body = node.text.slice(node.type === "translated_string" ? 2 : 1, -1);
  const value = body.replace(/\\([$`"\\\n])/g, (_, char: string) => (char === "\n" ? "" : char));
  return { value, raw: "", quoted: true };
}

/** An unquoted word: `\x` is `x`, `\newline` is nothing. */
function unescapeUnquoted(text: string): string {
  return text.replace(/\\(.)/gs, (_, char: string) => (char === "\n" ? "" : char));
}

/** Escaped characters replaced, so `\*` or `\{` is not read as a glob or a brace. */
function maskEscapes(text: string): string {
  return text.replace(/\\./gs, "E");
}

/** Unquoted glob characters, brace expansion (`{a,b}`, `{1..3}`) or a leading `~`. */
function expandsAtRunTime(unquoted: string): boolean {
  if (/[*?[]/.test(unquoted) || unquoted.startsWith("~")) return true;
  return /\{.*(?:,|\.\.).*\}/s.test(unquoted);
}

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  a: "\x07",
  b: "\b",
  e: "\x1b",
  E: "\x1b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
  v: "\v",
  "\\": "\\",
  "'": "'",
  '"': '"',
  "?": "?",
};

/**
 * The text of `$'…'` as bash decodes it; undefined for what is not decoded with confidence
 * (`\c` control characters, a value that would hold a NUL, a backslash-newline).
 */
export function decodeAnsiC(body: string): string | undefined {
  let out = "";
  for (let at = 0; at < body.length; at++) {
    const char = body[at] ?? "";
    if (char !== "\\") {
      out += char;
      continue;
    }
    const next = body[at + 1] ?? "";
    const simple = SIMPLE_ESCAPES[next];
    if (simple !== undefined) {
      out += simple;
      at++;
      continue;
    }
    const numeric = numericEscape(body, at);
    if (!numeric) return undefined;
    if (numeric.code === 0) return out;
    out += String.fromCodePoint(numeric.code);
    at += numeric.length - 1;
  }
  return out;
}

/** `\NNN` (octal), `\xHH`, `\uHHHH`, `\UHHHHHHHH` at `at`: the code and the escape's length. */
function numericEscape(body: string, at: number): { code: number; length: number } | undefined {
  const rest = body.slice(at + 1);
  const forms: Array<[RegExp, number]> = [
    [/^[0-7]{1,3}/, 8],
    [/^x[0-9A-Fa-f]{1,2}/, 16],
    [/^u[0-9A-Fa-f]{1,4}/, 16],
    [/^U[0-9A-Fa-f]{1,8}/, 16],
  ];
  for (const [pattern, base] of forms) {
    const match = pattern.exec(rest)?.[0];
    if (!match) continue;
    const digits = base === 8 ? match : match.slice(1);
    const code = Number.parseInt(digits, base);
    // bash keeps only the low byte of an octal escape; larger code points are UTF-8 encoded.
    const byte = base === 8 ? code & 0xff : code;
    if (byte > 0x7f && match[0] !== "u" && match[0] !== "U") return undefined;
    if (byte > 0x10ffff) return undefined;
    return { code: byte, length: match.length + 1 };
  }
  return undefined;
}

/** The node's children, without the nulls tree-sitter may leave. */
export function kids(node: Node): Node[] {
  return node.children.filter((child): child is Node => child !== null);
}

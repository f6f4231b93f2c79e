// The reader behind bench/baseline/bash-split.ts (the splitter bash rules used before the real
// parser), kept only as a benchmark baseline: walks a bash command as bash's own parser would,
// separating simple commands and finding every command bash substitutes.
import type { SimpleCommand } from "./bash-split.ts";

/** How a region between delimiters is read, where bash expands inside it. */
interface Region {
  /** The character that ends it; undefined to read to the end of the text. */
  close?: string;
  /** A character that nests with `close` (`$[ [1] ]`, the parentheses in `$(( (1) ))`). */
  open?: string;
  /** Whether `close` must come twice, as in `$(( … ))`. */
  doubled?: boolean;
  /** Inside double quotes: a backtick body then reads `\"` as `"`, `${` reads as PARAM_IN_DOUBLE. */
  dq: boolean;
  /** `'…'` and `$'…'`: plain text, a quote (skipped), or a quote whose text bash still expands. */
  singles: "plain" | "quote" | "expanding";
  /** Whether `"` opens a nested double-quoted region (else it is `close`, or plain text). */
  nestsDoubles: boolean;
  /** Whether `<( … )` and `>( … )` substitute here. */
  processes: boolean;
}

const DOUBLE: Region = {
  close: '"',
  dq: true,
  singles: "plain",
  nestsDoubles: false,
  processes: false,
};
const PARAM: Region = {
  close: "}",
  dq: false,
  singles: "quote",
  nestsDoubles: true,
  processes: true,
};
/** `${ … }` inside double quotes: bash expands even what single quotes hold (`:-'$(x)'`). */
const PARAM_IN_DOUBLE: Region = { ...PARAM, dq: true, singles: "expanding", processes: false };
/** `$(( … ))`: read like double quotes; quotes only protect its parentheses. */
const ARITHMETIC: Region = {
  close: ")",
  open: "(",
  doubled: true,
  dq: true,
  singles: "expanding",
  nestsDoubles: true,
  processes: false,
};
const BRACKET_ARITHMETIC: Region = { ...ARITHMETIC, close: "]", open: "[", doubled: false };
/** The text of a quote that bash still expands, read to its end; `"` is plain text there. */
const EXPANDING_TEXT: Region = { ...DOUBLE, close: undefined };

const SEPARATORS = ["&&", "||", ";", "|", "&", "\n"];
/** Deeper nesting than this is not read: the split is then uncertain. */
const MAX_DEPTH = 64;

/** A simple command being read: where it starts, its slot in the output, its substitutions. */
interface Open {
  start: number;
  slot: number;
  spans: Array<[number, number]>;
  writes: boolean;
}

export class Scanner {
  readonly commands: SimpleCommand[] = [];
  uncertain = false;
  private readonly src: string;
  private readonly depth: number;
  private pos = 0;
  private level = 0;
  private tooDeep = false;
  private current: Open | undefined;
  /** Where `$((` turned out not to be arithmetic, so it is not tried twice. */
  private readonly notArithmetic = new Set<number>();

  constructor(src: string, depth = 0) {
    this.src = src;
    this.depth = depth;
  }

  /** Reads the whole text as commands. */
  read(): this {
    this.list(false);
    return this;
  }

  /** Reads commands to the end of the text, or (`nested`) to the `)` that closes a `(`. */
  private list(nested: boolean): void {
    if (!this.enter()) return;
    const outer = this.current;
    let wordStart = true;
    this.begin();
    while (this.pos < this.src.length) {
      const at = this.pos;
      const char = this.src[at];
      if (char === ")") {
        this.end(at);
        this.pos++;
        if (nested) {
          this.leave(outer);
          return;
        }
        this.uncertain = true;
      } else if (char === "(") {
        this.end(at);
        this.pos++;
        this.list(true);
      } else if (char === "#" && wordStart) {
        this.end(at);
        this.skipComment();
      } else if (this.redirection()) {
        wordStart = this.src[at + 1] !== "(";
        continue;
      } else if (this.separator()) {
        this.end(at);
      } else {
        wordStart = char === " " || char === "\t";
        this.unit();
        continue;
      }
      wordStart = true;
      this.begin();
    }
    this.end(this.pos);
    if (nested) this.uncertain = true;
    this.leave(outer);
  }

  /** One level deeper; false (and uncertain, reading stopped) past MAX_DEPTH. */
  private enter(): boolean {
    this.level++;
    if (this.depth + this.level <= MAX_DEPTH) return true;
    this.level--;
    this.tooDeep = true;
    this.uncertain = true;
    this.pos = this.src.length;
    return false;
  }

  private leave(outer: Open | undefined): void {
    this.level--;
    this.current = outer;
  }

  private begin(): void {
    this.current = { start: this.pos, slot: this.commands.length, spans: [], writes: false };
  }

  /** Ends the current command at `at`, placing it before the commands substituted into it. */
  private end(at: number): void {
    const open = this.current;
    this.current = undefined;
    if (!open) return;
    const text = this.src.slice(open.start, at);
    if (text.trim() === "") return;
    const bare = cutSpans(text, open.spans, open.start);
    this.commands.splice(open.slot, 0, { text: text.trim(), bare, writes: open.writes });
  }

  private separator(): boolean {
    const found = SEPARATORS.find((candidate) => this.src.startsWith(candidate, this.pos));
    if (found) this.pos += found.length;
    return found !== undefined;
  }

  private skipComment(): void {
    const newline = this.src.indexOf("\n", this.pos);
    this.pos = newline === -1 ? this.src.length : newline;
  }

  /**
   * `>`, `>>`, `>|`, `&>`, `>&file` write; `>&2`, `<`, `<&0` do not; `<(…)`, `>(…)` substitute.
   * A here-document (`<<`, not `<<<`) is not read, so it makes the split uncertain.
   */
  private redirection(): boolean {
    const { src, pos } = this;
    if ((src[pos] === "<" || src[pos] === ">") && src[pos + 1] === "(") {
      this.pos += 2;
      this.substitution(pos);
    } else if (src[pos] === ">") {
      if (!/^>&[\d-]/.test(src.slice(pos, pos + 3))) this.markWrites();
      this.pos += /^>[>|&]/.test(src.slice(pos, pos + 2)) ? 2 : 1;
    } else if (src.startsWith("&>", pos)) {
      this.markWrites();
      this.pos += src.startsWith("&>>", pos) ? 3 : 2;
    } else if (src[pos] === "<") {
      if (/^<<[^<]/.test(src.slice(pos, pos + 3))) this.uncertain = true;
      this.pos += /^<[<&]/.test(src.slice(pos, pos + 2)) ? 2 : 1;
    } else return false;
    return true;
  }

  private markWrites(): void {
    if (this.current) this.current.writes = true;
  }

  /** One piece of a word in a command: an escape, a quote, an expansion or a character. */
  private unit(): void {
    const { src, pos } = this;
    if (src[pos] === "\\") this.pos += 2;
    else if (src[pos] === "'") this.skipPast("'", pos + 1, false);
    else if (src.startsWith("$'", pos)) this.skipPast("'", pos + 2, true);
    else if (src[pos] === '"') this.region(DOUBLE, pos + 1);
    else if (src.startsWith('$"', pos)) this.region(DOUBLE, pos + 2);
    else if (!this.expansion(false)) this.pos++;
  }

  /** `$(( … ))`, `$( … )`, `${ … }`, `$[ … ]` or a backtick at the position: reads it, true. */
  private expansion(dq: boolean): boolean {
    const { src, pos } = this;
    if (src.startsWith("$((", pos) && !this.notArithmetic.has(pos)) this.arithmetic(pos);
    else if (src.startsWith("$(", pos)) {
      this.pos += 2;
      this.substitution(pos);
    } else if (src.startsWith("${", pos)) this.region(dq ? PARAM_IN_DOUBLE : PARAM, pos + 2);
    else if (src.startsWith("$[", pos)) this.region(BRACKET_ARITHMETIC, pos + 2);
    else if (src[pos] === "`") this.backtick(dq);
    else return false;
    return true;
  }

  /** The commands of `$( … )`, `<( … )` or `>( … )` opened at `start`, read to their `)`. */
  private substitution(start: number): void {
    const outer = this.current;
    this.list(true);
    outer?.spans.push([start, this.pos]);
  }

  /** `$(( … ))` is arithmetic only if its parentheses close as `))`; else it is `$( ( … ) … )`. */
  private arithmetic(start: number): void {
    const saved = { count: this.commands.length, uncertain: this.uncertain };
    const spans = this.current?.spans.length ?? 0;
    if (this.region(ARITHMETIC, start + 3)) return;
    this.commands.length = saved.count;
    this.uncertain = saved.uncertain || this.tooDeep;
    this.current?.spans.splice(spans);
    this.notArithmetic.add(start);
    this.pos = start + 2;
    this.substitution(start);
  }

  /**
   * Reads a region from `from` to its closing character, finding what bash expands inside it.
   * False when it does not close; an unclosed region makes the split uncertain, except an
   * arithmetic one, which bash then reads as a command substitution.
   */
  private region(kind: Region, from: number): boolean {
    this.pos = from;
    if (!this.enter()) return false;
    let depth = 0;
    while (this.pos < this.src.length) {
      const { src, pos } = this;
      const char = src[pos];
      if (char === "\\") this.pos += 2;
      else if (char === kind.close && depth === 0) return this.closeRegion(kind);
      else if (char === kind.close || char === kind.open) {
        depth += char === kind.open ? 1 : -1;
        this.pos++;
      } else if (this.expansion(kind.dq)) continue;
      else if (kind.processes && /^[<>]\(/.test(src.slice(pos, pos + 2))) {
        this.pos += 2;
        this.substitution(pos);
      } else if (char === '"' && kind.nestsDoubles) this.region(DOUBLE, pos + 1);
      else if (!this.singleQuote(kind)) this.pos++;
    }
    this.level--;
    if (kind.close !== undefined && !kind.doubled) this.uncertain = true;
    return kind.close === undefined;
  }

  private closeRegion(kind: Region): boolean {
    this.level--;
    const twice = this.src[this.pos + 1] === kind.close;
    if (kind.doubled && !twice) return false;
    this.pos += kind.doubled ? 2 : 1;
    return true;
  }

  /** `'…'` or `$'…'` at the position inside a region, read as the region says; true if read. */
  private singleQuote(kind: Region): boolean {
    const { src, pos } = this;
    if (kind.singles === "plain") return false;
    const ansi = src.startsWith("$'", pos);
    if (!ansi && src[pos] !== "'") return false;
    const from = pos + (ansi ? 2 : 1);
    const closed = this.skipPast("'", from, ansi);
    if (kind.singles === "expanding") {
      const text = src.slice(from, closed ? this.pos - 1 : this.pos);
      this.absorb(new Scanner(text, this.depth + this.level + 1).expandingText());
    }
    return true;
  }

  /** Reads the whole text as a quote whose text bash still expands. */
  private expandingText(): this {
    this.region(EXPANDING_TEXT, 0);
    return this;
  }

  /** Moves past the `close` ending a quote begun at `from` (`\` escapes if `escapes`); true if found. */
  private skipPast(close: string, from: number, escapes: boolean): boolean {
    let at = from;
    while (at < this.src.length && this.src[at] !== close) {
      at += escapes && this.src[at] === "\\" ? 2 : 1;
    }
    const found = at < this.src.length;
    if (!found) this.uncertain = true;
    this.pos = found ? at + 1 : this.src.length;
    return found;
  }

  /** A backtick substitution: its body, unescaped, is read as commands of its own. */
  private backtick(dq: boolean): void {
    const start = this.pos;
    const closed = this.skipPast("`", start + 1, true);
    const body = this.src.slice(start + 1, closed ? this.pos - 1 : this.pos);
    const unescaped = body.replace(dq ? /\\([\\`$"])/g : /\\([\\`$])/g, "$1");
    this.absorb(new Scanner(unescaped, this.depth + this.level + 1).read());
    this.current?.spans.push([start, this.pos]);
  }

  private absorb(scanner: Scanner): void {
    this.commands.push(...scanner.commands);
    if (scanner.uncertain) this.uncertain = true;
  }
}

/** `text` (which starts at `offset`) without the substitution spans, whitespace collapsed. */
function cutSpans(text: string, spans: Array<[number, number]>, offset: number): string {
  let out = "";
  let at = 0;
  for (const [start, end] of [...spans].sort((a, b) => a[0] - b[0])) {
    out += text.slice(at, Math.max(at, start - offset));
    at = Math.max(at, end - offset);
  }
  return (out + text.slice(at)).trim().replace(/\s+/g, " ");
}

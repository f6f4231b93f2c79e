// A streamed answer as Markdown with a bounded re-layout: the text is cut at paragraph breaks
// (a blank line outside a code fence) into finished blocks, each its own Markdown component
// whose lines pi-tui caches, and one live block that is parsed again as deltas arrive. So a
// long answer costs each frame only its last block, not the whole answer. A single paragraph,
// list or code block is never cut (it would render differently). Used by transcript.ts.
import { type Component, Container, Markdown, type MarkdownTheme } from "@mariozechner/pi-tui";

/** The live block is cut once it has at least this many characters before a break. */
const CUT_AFTER_CHARS = 2048;

export class StreamedMarkdown extends Container {
  private live: Markdown;
  /** The live block's text. */
  private text = "";
  /** Fence state at the start of the live block (the frozen text ends outside any fence). */
  private scanned = 0;
  private inFence = false;
  private lastBreak = -1;

  constructor(private readonly theme: MarkdownTheme) {
    super();
    this.live = new Markdown("", 0, 0, theme);
    this.addChild(this.live);
  }

  append(delta: string): void {
    this.text += delta;
    this.scan();
    if (this.lastBreak >= CUT_AFTER_CHARS) {
      const done = this.text.slice(0, this.lastBreak);
      this.text = this.text.slice(this.lastBreak);
      this.scanned -= this.lastBreak;
      this.lastBreak = -1;
      this.live.setText(done);
      this.removeChild(this.live);
      this.addChild(new FinishedBlock(this.live));
      this.live = new Markdown("", 0, 0, this.theme);
      this.addChild(this.live);
    }
    this.live.setText(this.text);
  }

  /** Finds the last paragraph break outside a fence in the newly arrived whole lines. */
  private scan(): void {
    for (;;) {
      const newline = this.text.indexOf("\n", this.scanned);
      if (newline < 0) return;
      const line = this.text.slice(this.scanned, newline);
      if (/^ {0,3}(```|~~~)/.test(line)) this.inFence = !this.inFence;
      else if (!this.inFence && line.trim() === "" && this.scanned > 0) {
        // Cut after the blank line: the next block starts with the next paragraph.
        this.lastBreak = newline + 1;
      }
      this.scanned = newline + 1;
    }
  }
}

/**
 * A finished block ends with the blank line the whole text shows between it and the next
 * block: Markdown keeps one after some blocks (a code fence) and drops it after others.
 */
class FinishedBlock implements Component {
  private cache: { width: number; lines: string[] } | undefined;

  constructor(private readonly markdown: Markdown) {}

  invalidate(): void {
    this.cache = undefined;
    this.markdown.invalidate();
  }

  render(width: number): string[] {
    if (this.cache?.width === width) return this.cache.lines;
    const lines = this.markdown.render(width);
    const last = lines.at(-1);
    const out = last === undefined || last.trim() === "" ? lines : [...lines, " ".repeat(width)];
    this.cache = { width, lines: out };
    return out;
  }
}

// A tool call the model is still writing, as a card in the transcript: the tool's name, how
// much input has arrived, and the last lines of its arguments as they stream (decoded and
// escaped by present/streaming-input.ts), cut to the width. Opened by `tool/input-start`, fed
// the call's `tool_input` chunks; transcript.ts puts the real card (tool-card.ts) in its place
// when the call's `tool/call` comes, and drops it when the request fails or the turn ends.
import { type Component, truncateToWidth } from "@mariozechner/pi-tui";
import { formatCount } from "../present/format.ts";
import { StreamingInput } from "../present/streaming-input.ts";
import { terminalSafeLine as safe } from "../runner/index.ts";
import type { Theme } from "./theme.ts";
import { TAIL_LINES } from "./tool-card.ts";

export class PendingToolCard implements Component {
  private readonly input = new StreamingInput(TAIL_LINES);
  private cache: { width: number; lines: string[] } | undefined;

  constructor(
    private readonly tool: string,
    private readonly theme: Theme,
  ) {}

  /** More of the arguments (a `tool_input` chunk's delta). */
  push(delta: string): void {
    this.input.push(delta);
    this.invalidate();
  }

  invalidate(): void {
    this.cache = undefined;
  }

  render(width: number): string[] {
    if (this.cache?.width === width) return this.cache.lines;
    const { theme, input } = this;
    const fit = (line: string) => truncateToWidth(line, Math.max(1, width));
    const size =
      input.lines > 0
        ? `${formatCount(input.lines + 1)} lines`
        : `${formatCount(input.chars)} chars`;
    const header = `${theme.dim("○")} ${theme.bold(safe(this.tool))} ${theme.dim(`writing… ${size}`)}`;
    const lines = [fit(header), ...input.tail().map((line) => fit(theme.dim(`  │ ${line}`)))];
    this.cache = { width, lines };
    return lines;
  }
}

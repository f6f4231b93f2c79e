// One streamed thinking block in the transcript: dimmed italic text, or nothing at all while the
// display hides thinking (`[display] show_thinking`, `/thinking`). The text is kept either way,
// so toggling shows it again; the session log is never touched. Created by transcript.ts.
import { type Component, wrapTextWithAnsi } from "@mariozechner/pi-tui";
import type { Theme } from "./theme.ts";

export class ThinkingBlock implements Component {
  private text = "";

  constructor(
    private readonly theme: Theme,
    private readonly display: { showThinking: boolean },
  ) {}

  append(delta: string): void {
    this.text += delta;
  }

  invalidate(): void {}

  render(width: number): string[] {
    if (!this.display.showThinking) return [];
    const style = this.theme.thinking;
    const lines: string[] = [""];
    for (const line of this.text.trimEnd().split("\n")) {
      for (const part of wrapTextWithAnsi(line, Math.max(1, width - 2)))
        lines.push(`  ${style(part)}`);
    }
    return lines;
  }
}

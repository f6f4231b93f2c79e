// The input editor: pi-tui's Editor, whose large-paste markers (`[paste #1 +2400 lines]`, kept
// in the text so the paste expands on submit) are shown as `[pasted 2,400 lines]`. Display
// only: the label is padded to the marker's width, so wrapping and the cursor stay where the
// editor put them. And `refreshCompletion`, for commands that arrive while a `/…` is typed
// (pi-tui recomputes its menu only on a key). Made by app.ts.
import { Editor } from "@mariozechner/pi-tui";

const MARKER = /\[paste #\d+ (?:\+(\d+) lines|(\d+) chars)\]/g;

/** One rendered line with each paste marker relabelled, its width unchanged. */
export function relabelPastes(line: string): string {
  return line.replace(MARKER, (whole, lines: string | undefined, chars: string | undefined) => {
    const count = Number(lines ?? chars).toLocaleString("en-US");
    const label = `[pasted ${count} ${lines === undefined ? "chars" : "lines"}]`;
    return label.length <= whole.length ? label.padEnd(whole.length) : whole;
  });
}

/** The members of pi-tui 0.73's Editor `refreshCompletion` uses (private in its types). */
interface CompletionInternals {
  isInSlashCommandContext(textBeforeCursor: string): boolean;
  tryTriggerAutocomplete(): void;
  updateAutocomplete(): void;
}

export class InputEditor extends Editor {
  /**
   * Computes the completion menu again for the text as it stands, as a key would: the menu
   * shown is updated, and a `/name` being typed whose menu found nothing is offered again.
   */
  refreshCompletion(): void {
    const internals = this as unknown as Partial<CompletionInternals>;
    if (typeof internals.updateAutocomplete !== "function") return;
    if (this.isShowingAutocomplete()) {
      internals.updateAutocomplete();
      return;
    }
    const { line, col } = this.getCursor();
    const before = (this.getLines()[line] ?? "").slice(0, col);
    if (internals.isInSlashCommandContext?.(before) && !before.trimStart().includes(" ")) {
      internals.tryTriggerAutocomplete?.();
    }
  }

  override render(width: number): string[] {
    return super
      .render(width)
      .map((line) => (line.includes("[paste #") ? relabelPastes(line) : line));
  }
}

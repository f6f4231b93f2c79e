// A yes/no question above the input editor (a rewind that would overwrite files changed
// outside codewhale: "overwrite them?"): `y` answers yes; `n`, Esc or Ctrl-C answer no. The
// question is shown through the escaper. Opened by app.ts, which gives it focus while open.
import { type Component, type Focusable, matchesKey, truncateToWidth } from "@mariozechner/pi-tui";
import { terminalSafeLine } from "../runner/index.ts";
import type { Theme } from "./theme.ts";

export class ConfirmPanel implements Component, Focusable {
  focused = false;
  private answered = false;

  constructor(
    private readonly question: string,
    private readonly theme: Theme,
    private readonly done: (yes: boolean) => void,
  ) {}

  handleInput(data: string): void {
    if (this.answered) return;
    const yes = data === "y" || data === "Y";
    const no =
      data === "n" || data === "N" || matchesKey(data, "escape") || matchesKey(data, "ctrl+c");
    if (!yes && !no) return;
    this.answered = true;
    this.done(yes);
  }

  invalidate(): void {}

  render(width: number): string[] {
    return [
      truncateToWidth(this.theme.warn(terminalSafeLine(this.question)), width),
      truncateToWidth(
        this.theme.dim("y: overwrite them · n or Esc: keep them, rewind nothing"),
        width,
      ),
    ];
  }
}

// The line under the transcript while a turn runs: a spinner, the elapsed time, the turn's
// tokens and cost (from `step/end`; a streaming request's output estimated live at four
// characters a token, priced at the model's output price, marked `~`), a waiting retry, how
// to cancel; when idle, the model, mode and cost, or the line of the user's status line
// command (status-command.ts) instead. Fed by app.ts; its own timer animates it.
import type { Component, TUI } from "@mariozechner/pi-tui";
import { truncateToWidth } from "@mariozechner/pi-tui";
import { formatCost, formatDuration, formatTokens } from "../present/format.ts";
import { retryLine } from "../present/tool-line.ts";
import { terminalSafe as safe } from "../runner/index.ts";
import type { SessionEvent } from "../session/events.ts";
import type { Theme } from "./theme.ts";

const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

export class StatusLine implements Component {
  private turnStarted: number | undefined;
  private tokens = 0;
  private cost: number | null = null;
  private streamedChars = 0;
  private frame = 0;
  private timer: NodeJS.Timeout | undefined;
  private cancelling = false;
  private retrying: string | undefined;
  /** The idle line: model, mode, session cost; shown through the escaper (a model's name is config). */
  idle = "";
  /** USD per million output tokens of the session's model, when known (the live estimate). */
  outputPrice: number | null = null;
  /**
   * The `[display] status_line` command's line (status-command.ts: colours kept, the rest
   * escaped): in place of the idle line, and under the running one.
   */
  custom = "";

  constructor(
    private readonly tui: TUI,
    private readonly theme: Theme,
    private readonly now: () => number = Date.now,
  ) {}

  observe(event: SessionEvent): void {
    if (event.type === "turn/start") {
      this.turnStarted = this.now();
      this.tokens = 0;
      this.cost = null;
      this.streamedChars = 0;
    } else if (event.type === "assistant/chunk") {
      this.streamedChars += event.delta.length;
      this.retrying = undefined;
    } else if (event.type === "step/failed") {
      this.retrying = event.will_retry ? retryLine(event, { color: false }) : undefined;
      this.streamedChars = 0;
    } else if (event.type === "step/start") {
      this.retrying = undefined;
    } else if (event.type === "step/end") {
      const { usage } = event;
      this.tokens += usage.input + usage.cache_read + usage.cache_write + usage.output;
      this.streamedChars = 0;
      if (event.cost !== null) this.cost = (this.cost ?? 0) + event.cost;
    }
  }

  /** The agent's status: the spinner runs from `running` to `idle`. */
  setRunning(running: boolean, cancelling = false): void {
    this.cancelling = cancelling;
    if (running && !this.timer) {
      this.turnStarted ??= this.now();
      this.timer = setInterval(() => {
        this.frame = (this.frame + 1) % FRAMES.length;
        this.tui.requestRender();
      }, 100);
    } else if (!running) {
      if (this.timer) clearInterval(this.timer);
      this.timer = undefined;
      this.turnStarted = undefined;
    }
    this.tui.requestRender();
  }

  get running(): boolean {
    return this.timer !== undefined;
  }

  dispose(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  invalidate(): void {}

  render(width: number): string[] {
    const { theme } = this;
    const custom = this.custom ? [truncateToWidth(this.custom, width)] : [];
    if (!this.timer) {
      if (custom.length > 0) return custom;
      return this.idle ? [truncateToWidth(theme.dim(safe(this.idle)), width)] : [];
    }
    const elapsed = formatDuration(this.now() - (this.turnStarted ?? this.now()));
    // Until a step ends its tokens are not counted: about four characters a token meanwhile.
    const streaming = Math.round(this.streamedChars / 4);
    const mark = streaming > 0 ? "~" : "";
    const figures = [elapsed, `${mark}${formatTokens(this.tokens + streaming)} tokens`];
    const estimate = this.outputPrice === null ? 0 : (streaming * this.outputPrice) / 1_000_000;
    if (this.cost !== null || (this.outputPrice !== null && streaming > 0)) {
      figures.push(`${mark}${formatCost((this.cost ?? 0) + estimate)}`);
    }
    const what = this.cancelling ? "Cancelling" : "Working";
    const hint = this.cancelling ? "" : " · Esc to cancel";
    const retry = this.retrying ? ` · ${theme.warn(this.retrying)}` : "";
    const line = `${theme.accent(FRAMES[this.frame] ?? "")} ${what}… ${theme.dim(figures.join(" · "))}${retry}${theme.dim(hint)}`;
    return [truncateToWidth(line, width), ...custom];
  }
}

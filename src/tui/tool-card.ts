// One tool call as a card in the transcript: the title (effective arguments), a rewrite mark
// with the model's original, a refusal; while it runs, its last output lines (`tool/progress`,
// already through the output policy); then the result's summary (bash: its exit code),
// truncation, redactions and a coloured diff. Expanded (Ctrl-O, tool-card-detail.ts): all the
// model was given and sent. Focused (Alt-Up/Alt-Down), its title is marked `▶`. Built by
// transcript.ts; a pi-tui Component.
import { type Component, truncateToWidth } from "@mariozechner/pi-tui";
import { terminalSafe as safe } from "../runner/index.ts";
import type { EventOf } from "../session/events.ts";
import type { CallPresentation, ResultPresentation } from "../tools/presentation.ts";
import { callLabel } from "./call-label.ts";
import { diffLines } from "./diff-lines.ts";
import type { Theme } from "./theme.ts";
import { cardDetail, compactJson, redactionNote } from "./tool-card-detail.ts";

/** How many lines of a running call's output tail the card shows. */
export const TAIL_LINES = 5;
/** How many of a result's first lines the collapsed card previews. */
export const PREVIEW_LINES = 3;
/** Tools whose result is a file's text, which the summary ("N lines") says enough about. */
const NO_PREVIEW = new Set(["read"]);

export interface CardResult {
  event: EventOf<"tool/result">;
  presentation: ResultPresentation;
}

/** What the transcript does with a call's card, a plain one or a subagent's (subagent-card.ts). */
export interface CallCard extends Component {
  readonly callId: string;
  /** The title line as plain text (the status of the focus names it). */
  readonly title: string;
  finish(event: EventOf<"tool/result">, presentation: ResultPresentation): void;
  progress(tail: string): void;
  toggle(): void;
  setFocused(focused: boolean): void;
}

export class ToolCard implements CallCard {
  private result: CardResult | undefined;
  private tail: string[] = [];
  private expanded = false;
  private focused = false;
  private cache: { width: number; lines: string[] } | undefined;

  constructor(
    private readonly call: EventOf<"tool/call">,
    private readonly presentation: CallPresentation,
    private readonly theme: Theme,
  ) {}

  get callId(): string {
    return this.call.call_id;
  }

  get isExpanded(): boolean {
    return this.expanded;
  }

  finish(event: EventOf<"tool/result">, presentation: ResultPresentation): void {
    this.result = { event, presentation };
    this.tail = [];
    this.invalidate();
  }

  /** The newest output of the running call (policy-processed); ignored once it has ended. */
  progress(tail: string): void {
    if (this.result) return;
    const lines = tail.replace(/\n$/, "").split("\n");
    this.tail = lines.slice(-TAIL_LINES).map((line) => safe(line));
    this.invalidate();
  }

  /** Ctrl-O: shows everything, or the compact card again. */
  toggle(): void {
    this.expanded = !this.expanded;
    this.invalidate();
  }

  /** Alt-Up/Alt-Down: the card Ctrl-O expands, marked on its title line. */
  setFocused(focused: boolean): void {
    this.focused = focused;
    this.invalidate();
  }

  /** The title line as plain text (the status of the focus names it). */
  get title(): string {
    return `${safe(this.call.name)} ${safe(this.presentation.title)}`;
  }

  invalidate(): void {
    this.cache = undefined;
  }

  render(width: number): string[] {
    if (this.cache?.width === width) return this.cache.lines;
    const lines = this.expanded ? this.renderExpanded(width) : this.renderCompact(width);
    this.cache = { width, lines };
    return lines;
  }

  private renderCompact(width: number): string[] {
    const { theme, call } = this;
    const fit = (line: string) => truncateToWidth(line, Math.max(1, width));
    const lines = [fit(this.header())];
    if (call.original_arguments !== undefined) {
      lines.push(fit(theme.warn(`  ↻ rewritten by ${this.rewriter()}`)));
      lines.push(fit(theme.dim(`    model asked: ${compactJson(call.original_arguments)}`)));
    }
    if (call.decision.outcome === "deny") {
      const reason = call.decision.reason ? `: ${safe(call.decision.reason)}` : "";
      lines.push(fit(theme.bad(`  ✗ denied (${call.decision.by}${reason})`)));
    }
    if (!this.result) {
      for (const line of this.tail) lines.push(fit(theme.dim(`  │ ${line}`)));
      return lines;
    }
    const { event, presentation } = this.result;
    const summary = safe(presentation.summary || "(no output)");
    lines.push(fit(`  └ ${event.is_error ? theme.bad(summary) : theme.dim(summary)}`));
    if (event.truncated) {
      const where = event.spill_path ? `; full output in ${safe(event.spill_path)}` : "";
      lines.push(fit(theme.dim(`    output truncated for the model${where}`)));
    }
    if (!presentation.diff && !NO_PREVIEW.has(call.name) && call.decision.outcome !== "deny") {
      for (const line of previewLines(event.content, event.is_error ? summary : ""))
        lines.push(fit(theme.dim(`    ${line}`)));
    }
    const redacted = redactionNote(event.content);
    if (redacted) lines.push(fit(theme.dim(`    ${redacted}`)));
    if (event.interrupted) lines.push(fit(theme.warn("    interrupted")));
    if (presentation.diff && !event.is_error) {
      for (const line of diffLines(presentation.diff, theme)) lines.push(fit(`    ${line}`));
    }
    return lines;
  }

  private renderExpanded(width: number): string[] {
    const detail = cardDetail(
      { call: this.call, result: this.result, tail: this.tail },
      this.theme,
      width,
    );
    return [truncateToWidth(this.header(), Math.max(1, width)), ...detail];
  }

  private header(): string {
    const { call, theme } = this;
    const mark = this.focused ? `${theme.accent("▶")} ` : "";
    return `${mark}${this.bullet()} ${callLabel(safe(call.name), safe(this.presentation.title), theme)}`;
  }

  private rewriter(): string {
    const by = safe(this.call.rewritten_by ?? "a hook");
    return `${by}${this.call.rewrite_reason ? `: ${safe(this.call.rewrite_reason)}` : ""}`;
  }

  private bullet(): string {
    const { theme } = this;
    if (this.call.decision.outcome === "deny") return theme.bad("●");
    if (!this.result) return theme.accent("●");
    return this.result.event.is_error ? theme.bad("●") : theme.good("●");
  }
}

/**
 * The first lines of a result as the model received it (the output policy's markers
 * included), without bash's closing `[exit code N]` or a first line the summary already
 * shows (an error's message), escaped, and how many more lines Ctrl-O shows.
 */
export function previewLines(content: string, summary = ""): string[] {
  const all = content
    .replace(/\n?\[exit code -?\d+\]\s*$/, "")
    .replace(/\s+$/, "")
    .split("\n");
  const lines =
    all[0] !== undefined && all[0] !== "" && summary.includes(safe(all[0])) ? all.slice(1) : all;
  if (lines.length === 0 || (lines.length === 1 && lines[0] === "")) return [];
  const shown = lines.slice(0, PREVIEW_LINES).map((line) => safe(line));
  const more = lines.length - shown.length;
  if (more > 0) shown.push(`… +${more} line${more === 1 ? "" : "s"} (Ctrl-O expands)`);
  return shown;
}

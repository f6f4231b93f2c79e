// One tool call as a compact card in the transcript: the presenter's title (the effective
// arguments), a mark when a hook or plugin rewrote the call (with the model's original), the
// decision when it was refused, then the result's one-line summary (bash: its exit code),
// truncation and a coloured diff for edits. Built by transcript.ts from `tool/call` and
// `tool/result` through present/tool-presentations.ts; a pi-tui Component.
import { type Component, truncateToWidth } from "@mariozechner/pi-tui";
import type { EventOf } from "../session/events.ts";
import type { CallPresentation, ResultPresentation } from "../tools/presentation.ts";
import { callLabel } from "./call-label.ts";
import { diffLines } from "./diff-lines.ts";
import { safe } from "./safe-text.ts";
import type { Theme } from "./theme.ts";

export class ToolCard implements Component {
  private result: { event: EventOf<"tool/result">; presentation: ResultPresentation } | undefined;

  constructor(
    private readonly call: EventOf<"tool/call">,
    private readonly presentation: CallPresentation,
    private readonly theme: Theme,
  ) {}

  get callId(): string {
    return this.call.call_id;
  }

  finish(event: EventOf<"tool/result">, presentation: ResultPresentation): void {
    this.result = { event, presentation };
  }

  invalidate(): void {}

  render(width: number): string[] {
    const { theme, call } = this;
    const fit = (line: string) => truncateToWidth(line, Math.max(1, width));
    const lines = [
      fit(`${this.bullet()} ${callLabel(safe(call.name), safe(this.presentation.title), theme)}`),
    ];
    if (call.original_arguments !== undefined) {
      const by = safe(call.rewritten_by ?? "a hook");
      const why = call.rewrite_reason ? `: ${safe(call.rewrite_reason)}` : "";
      lines.push(fit(theme.warn(`  ↻ rewritten by ${by}${why}`)));
      lines.push(fit(theme.dim(`    model asked: ${compactJson(call.original_arguments)}`)));
    }
    if (call.decision.outcome === "deny") {
      const reason = call.decision.reason ? `: ${safe(call.decision.reason)}` : "";
      lines.push(fit(theme.bad(`  ✗ denied (${call.decision.by}${reason})`)));
    }
    if (!this.result) return lines;
    const { event, presentation } = this.result;
    const summary = safe(presentation.summary || "(no output)");
    lines.push(fit(`  └ ${event.is_error ? theme.bad(summary) : theme.dim(summary)}`));
    if (event.truncated) {
      const where = event.spill_path ? `; full output in ${safe(event.spill_path)}` : "";
      lines.push(fit(theme.dim(`    output truncated for the model${where}`)));
    }
    if (event.interrupted) lines.push(fit(theme.warn("    interrupted")));
    if (presentation.diff && !event.is_error) {
      for (const line of diffLines(presentation.diff, theme)) lines.push(fit(`    ${line}`));
    }
    return lines;
  }

  private bullet(): string {
    const { theme } = this;
    if (this.call.decision.outcome === "deny") return theme.bad("●");
    if (!this.result) return theme.accent("●");
    return this.result.event.is_error ? theme.bad("●") : theme.good("●");
  }
}

function compactJson(value: unknown): string {
  const text = safe(JSON.stringify(value) ?? "null");
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
}

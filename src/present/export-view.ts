// The views of a session that exports and `sessions show --view` render: a pure, streaming fold
// of durable events into view items (a prompt, an answer block, a thinking block, a tool call
// with its presentation, a result, the provider's web searches with their sources, a turn's
// usage and cost). Streamed chunks of one block become
// one item; nothing but the open block and the open tool calls is held. Every string from the
// log passes through `redact` first. Called by export-render.ts and cli/sessions-command.ts.
import type { EventOf, JsonValue, SessionEvent, Usage } from "../session/events.ts";
import { zeroUsage } from "../session/events.ts";
import type { CallPresentation, FileDiff, ResultPresentation } from "../tools/presentation.ts";
import { checkpointLine, rewindLine } from "./checkpoint-line.ts";
import { planDecisionLine } from "./plan-line.ts";
import { sandboxNote } from "./sandbox-note.ts";
import { ToolPresentations } from "./tool-presentations.ts";
import { redactedView, type WebSearchView, webSearchView } from "./web-search-lines.ts";

export const EXPORT_VIEWS = ["canonical", "response-only", "thinking-only"] as const;
export type ExportView = (typeof EXPORT_VIEWS)[number];

export interface SessionHead {
  sessionId: string;
  provider: string;
  model: string;
  cwd: string;
  started: string;
  version: string;
}

/** An image a prompt carries, as the log names it. */
export interface ImageNote {
  sha256: string;
  mediaType: string;
  bytes: number;
}

export type ViewItem =
  | {
      kind: "user";
      seq: number;
      text: string;
      blocked: string | null;
      steering: boolean;
      /** The prompt's images, by hash (stored beside the log). */
      images: ImageNote[];
    }
  | { kind: "text" | "thinking"; seq: number; turn: number; text: string }
  | {
      kind: "tool-call";
      seq: number;
      callId: string;
      name: string;
      presentation: CallPresentation;
      arguments: JsonValue;
      /** The arguments before a hook or plugin rewrote them, and by whom. */
      original: { arguments: JsonValue; by: string; reason: string | null } | null;
      decision: EventOf<"tool/call">["decision"];
    }
  | {
      kind: "tool-result";
      seq: number;
      callId: string;
      presentation: ResultPresentation;
      diff: FileDiff | null;
      content: string;
      isError: boolean;
      truncated: { originalBytes: number; deliveredBytes: number } | null;
      interrupted: boolean;
      /** The OS sandbox its command ran under, as a line (sandbox-note.ts); null: no command. */
      sandbox: string | null;
    }
  | { kind: "note"; seq: number; source: string; text: string }
  /** A plan proposed in plan mode (`plan/proposed`): Markdown, as the user was shown it. */
  | { kind: "plan"; seq: number; callId: string; plan: string }
  /** How that plan was decided (`plan/decided`; plan-line.ts), one line. */
  | { kind: "plan-decision"; seq: number; callId: string; approved: boolean; line: string }
  /** The provider's web searches in one message and the sources its text cites. */
  | ({ kind: "web-search"; seq: number } & WebSearchView)
  /** A workspace checkpoint or a rewind (checkpoint-line.ts), one line. */
  | { kind: "checkpoint" | "rewind"; seq: number; line: string }
  | { kind: "failed"; seq: number; error: string; willRetry: boolean }
  /** A `context/compaction`: from here the model read `summary` in place of what it covers. */
  | {
      kind: "compaction";
      seq: number;
      trigger: "auto" | "manual";
      summary: string;
      tokensBefore: number;
      tokensAfter: number;
      model: string;
      cost: number | null;
    }
  /**
   * A subagent session a `task` call ran (docs/subagents.md), after the call's result: its own
   * view, what was read of its log, and whether the parent's link to it holds.
   */
  | {
      kind: "subagent";
      /** The parent's `tool/result` that names the child. */
      seq: number;
      callId: string;
      sessionId: string;
      /** The child's last line when it closed, as the parent's result recorded it. */
      link: { seq: number; h: string };
      /** What was read of the child's log through `link.seq`; null when it could not be read. */
      log: { lastSeq: number; chainHead: string; bytes: number; sha256: string } | null;
      /** The child's line at `link.seq` has the hash `link.h`. */
      linkHolds: boolean;
      /** Why the child's log could not be read; null when it was. */
      error: string | null;
      cost: number | null;
      items: ViewItem[];
    }
  | {
      kind: "turn-end";
      seq: number;
      turn: number;
      reason: string;
      error: string | null;
      steps: number;
      usage: Usage;
      cost: number | null;
    };

/** Which item kinds each view keeps (the session head, compactions, rewinds and turn ends are in every view). */
const KEPT: Record<ExportView, ReadonlySet<ViewItem["kind"]>> = {
  canonical: new Set([
    "user",
    "text",
    "thinking",
    "tool-call",
    "tool-result",
    "web-search",
    "note",
    "plan",
    "plan-decision",
    "failed",
    "compaction",
    "checkpoint",
    "rewind",
    "turn-end",
  ]),
  "response-only": new Set([
    "user",
    "text",
    "web-search",
    "plan",
    "plan-decision",
    "compaction",
    "rewind",
    "turn-end",
  ]),
  "thinking-only": new Set(["user", "thinking", "compaction", "rewind", "turn-end"]),
};

export function isExportView(value: string): value is ExportView {
  return (EXPORT_VIEWS as readonly string[]).includes(value);
}

export type Redact = (text: string) => string;

/** Folds events into the items of one view, in log order; `push` returns the finished ones. */
export class ViewFold {
  head: SessionHead | null = null;
  private block: { key: string; kind: "text" | "thinking"; seq: number; turn: number } | null =
    null;
  private blockText: string[] = [];
  private readonly presentations = new ToolPresentations();
  private turn = { steps: 0, usage: zeroUsage(), cost: null as number | null };

  constructor(
    readonly view: ExportView,
    private readonly redact: Redact,
  ) {}

  push(event: SessionEvent): ViewItem[] {
    const out: ViewItem[] = [];
    if (event.type === "assistant/chunk") {
      if (event.kind !== "tool_input") this.chunk(event, out);
      return out;
    }
    this.flushBlock(out);
    const item = this.itemOf(event);
    if (item && KEPT[this.view].has(item.kind)) out.push(item);
    return out;
  }

  /** The items still open at the end of the events read (a block cut by `--until`). */
  end(): ViewItem[] {
    const out: ViewItem[] = [];
    this.flushBlock(out);
    return out;
  }

  private chunk(event: EventOf<"assistant/chunk">, out: ViewItem[]): void {
    const key = `${event.turn}/${event.step}/${event.block}`;
    if (this.block?.key !== key) {
      this.flushBlock(out);
      const kind = event.kind === "thinking" ? "thinking" : "text";
      this.block = { key, kind, seq: event.seq, turn: event.turn };
    }
    this.blockText.push(event.delta);
  }

  private flushBlock(out: ViewItem[]): void {
    const block = this.block;
    if (!block) return;
    this.block = null;
    const text = this.blockText.join("");
    this.blockText = [];
    if (!KEPT[this.view].has(block.kind) || text.length === 0) return;
    out.push({ kind: block.kind, seq: block.seq, turn: block.turn, text: this.redact(text) });
  }

  private itemOf(event: SessionEvent): ViewItem | null {
    const r = this.redact;
    switch (event.type) {
      case "session/start":
        this.head = {
          sessionId: r(event.session_id),
          provider: r(event.provider),
          model: r(event.model),
          cwd: r(event.cwd),
          started: r(event.ts),
          version: r(event.version),
        };
        return null;
      case "user/message":
        return {
          kind: "user",
          seq: event.seq,
          text: r(event.text),
          blocked: event.blocked ? r(`${event.blocked.by}: ${event.blocked.reason}`) : null,
          steering: false,
          images: (event.images ?? []).map((image) => ({
            sha256: image.sha256,
            mediaType: image.media_type,
            bytes: image.bytes,
          })),
        };
      case "steering/message": {
        const text = r(event.text);
        return { kind: "user", seq: event.seq, text, blocked: null, steering: true, images: [] };
      }
      case "assistant/message": {
        const view = webSearchView(event.content);
        return view ? { kind: "web-search", seq: event.seq, ...redactedView(view, r) } : null;
      }
      case "context/note":
        return { kind: "note", seq: event.seq, source: r(event.source), text: r(event.text) };
      case "plan/proposed":
        return { kind: "plan", seq: event.seq, callId: r(event.call_id), plan: r(event.plan) };
      case "plan/decided":
        return {
          kind: "plan-decision",
          seq: event.seq,
          callId: r(event.call_id),
          approved: event.approved,
          line: r(planDecisionLine(event)),
        };
      case "tool/call":
        return this.call(event);
      case "tool/result":
        return this.result(event);
      case "step/failed":
        return {
          kind: "failed",
          seq: event.seq,
          error: r(event.error),
          willRetry: event.will_retry,
        };
      case "context/compaction":
        return {
          kind: "compaction",
          seq: event.seq,
          trigger: event.trigger,
          summary: r(event.summary),
          tokensBefore: event.tokens_before,
          tokensAfter: event.tokens_after,
          model: r(`${event.provider}/${event.model}`),
          cost: event.cost,
        };
      case "checkpoint/taken":
        return { kind: "checkpoint", seq: event.seq, line: r(checkpointLine(event)) };
      case "checkpoint/rewind":
        return { kind: "rewind", seq: event.seq, line: r(rewindLine(event)) };
      case "turn/start":
        this.turn = { steps: 0, usage: zeroUsage(), cost: null };
        return null;
      case "step/end":
        this.countStep(event);
        return null;
      case "turn/end":
        return {
          kind: "turn-end",
          seq: event.seq,
          turn: event.turn,
          reason: event.reason,
          error: event.error === undefined ? null : r(event.error),
          ...this.turn,
        };
      default:
        return null;
    }
  }

  private countStep(event: EventOf<"step/end">): void {
    this.turn.steps++;
    const sum = this.turn.usage;
    for (const key of Object.keys(sum) as (keyof Usage)[]) sum[key] += event.usage[key];
    if (event.cost !== null) this.turn.cost = (this.turn.cost ?? 0) + event.cost;
  }

  /** The call as recorded, its arguments redacted before anything presents them. */
  private call(event: EventOf<"tool/call">): ViewItem {
    const r = this.redact;
    const args = redactJson(event.arguments, r);
    const redacted = { ...event, name: r(event.name), call_id: r(event.call_id), arguments: args };
    const presentation = this.presentations.of(redacted) as CallPresentation;
    const original =
      event.original_arguments === undefined
        ? null
        : {
            arguments: redactJson(event.original_arguments, r),
            by: r(event.rewritten_by ?? "unknown"),
            reason: event.rewrite_reason === undefined ? null : r(event.rewrite_reason),
          };
    const decision = { ...event.decision };
    if (decision.reason !== undefined) decision.reason = r(decision.reason);
    if (decision.rule !== undefined) decision.rule = r(decision.rule);
    return {
      kind: "tool-call",
      seq: event.seq,
      callId: redacted.call_id,
      name: redacted.name,
      presentation,
      arguments: args,
      original,
      decision,
    };
  }

  private result(event: EventOf<"tool/result">): ViewItem {
    const content = this.redact(event.content);
    const redacted = { ...event, call_id: this.redact(event.call_id), content };
    const presentation = this.presentations.of(redacted) as ResultPresentation;
    const truncated = event.truncated
      ? { originalBytes: event.original_bytes, deliveredBytes: event.delivered_bytes }
      : null;
    return {
      kind: "tool-result",
      seq: event.seq,
      callId: redacted.call_id,
      presentation: { summary: presentation.summary },
      diff: presentation.diff ?? null,
      content,
      isError: event.is_error,
      truncated,
      interrupted: event.interrupted === true,
      sandbox: event.sandbox ? sandboxNote(event.sandbox) : null,
    };
  }
}

/** Every string in a JSON value (keys too) with secrets redacted. */
export function redactJson(value: JsonValue, redact: Redact): JsonValue {
  if (typeof value === "string") return redact(value);
  if (Array.isArray(value)) return value.map((item) => redactJson(item, redact));
  if (value !== null && typeof value === "object") {
    const out: Record<string, JsonValue> = {};
    for (const [key, item] of Object.entries(value)) {
      out[redact(key)] = redactJson(item as JsonValue, redact);
    }
    return out;
  }
  return value;
}

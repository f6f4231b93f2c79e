// The stream-json contract (docs/stream-json.md): a pure projection of durable session events
// into JSON lines for integrators, plus the `init` first line and the `result` last line (with
// the run's answer and its figures, session/figures.ts). Fed only from `session/event`; knows
// nothing of the loop.
import { readNative } from "../providers/neutral.ts";
import type { EventOf, JsonValue, SessionEvent } from "../session/events.ts";
import type { Figures } from "../session/figures.ts";
import type { CallPresentation, ResultPresentation } from "../tools/presentation.ts";
import type { SubagentFigures } from "./child-figures.ts";
import { type MissingAnswer, missingAnswer } from "./missing-answer.ts";

/** How a tool call or result is shown (tools/presentation.ts). */
type Presentation = CallPresentation | ResultPresentation;

/** Version of the line shapes below; additive changes keep it, removals and renames bump it. */
export const STREAM_JSON_SCHEMA_VERSION = 1;

export type StreamLine = { type: string } & Record<string, unknown>;

export interface InitInfo {
  sessionId: string;
  logPath: string;
  cwd: string;
  provider: string;
  model: string;
  codewhaleVersion: string;
  resumed: boolean;
}

export function initLine(info: InitInfo): StreamLine {
  return {
    type: "init",
    schema_version: STREAM_JSON_SCHEMA_VERSION,
    session_id: info.sessionId,
    log_path: info.logPath,
    cwd: info.cwd,
    provider: info.provider,
    model: info.model,
    codewhale_version: info.codewhaleVersion,
    resumed: info.resumed,
  };
}

/** The field a delta's text travels in, by block kind: response text only ever in `text`. */
const DELTA_SHAPE = {
  text: { type: "message_delta", field: "text" },
  thinking: { type: "thinking_delta", field: "thinking" },
  tool_input: { type: "tool_input_delta", field: "partial_json" },
} as const;

/**
 * The lines one session event projects to: one for every type but `session/checkpoint`, a
 * receipt of the log that integrators read from the log itself (none). A tool call or result
 * also carries its `presentation` when the surface gives one (see tool-presentations.ts).
 */
export function projectEvent(event: SessionEvent, presentation?: Presentation): StreamLine[] {
  if (event.type === "session/checkpoint") return [];
  if (event.type === "assistant/chunk") {
    const shape = DELTA_SHAPE[event.kind];
    return [
      {
        type: shape.type,
        seq: event.seq,
        turn: event.turn,
        step: event.step,
        block: event.block,
        kind: event.kind,
        [shape.field]: event.delta,
      },
    ];
  }
  const { v: _v, h: _h, ...rest } = event;
  return [presentation === undefined ? rest : { ...rest, presentation }];
}

/**
 * The lines of one event of a subagent's session (docs/subagents.md): its own projection, each
 * line naming the child session (`session_id`) and the parent's `task` call that runs it
 * (`parent_call_id`).
 */
export function projectChildEvent(
  child: { callId: string; sessionId: string; event: SessionEvent },
  presentation?: Presentation,
): StreamLine[] {
  return projectEvent(child.event, presentation).map((line) => ({
    ...line,
    parent_call_id: child.callId,
    session_id: child.sessionId,
  }));
}

export function serializeLine(line: StreamLine): string {
  return `${JSON.stringify(line)}\n`;
}

/**
 * The serialized lines of one event: exactly `projectEvent(event).map(serializeLine)`, with
 * the delta lines (the bulk of any stream) written without building an object first.
 */
export function projectEventText(event: SessionEvent, presentation?: Presentation): string {
  if (event.type !== "assistant/chunk") {
    return projectEvent(event, presentation).map(serializeLine).join("");
  }
  return `${deltaLineHead(event)}${event.seq}${deltaLineMiddle(event).text}${JSON.stringify(event.delta)}}\n`;
}

const DELTA_HEADS = Object.fromEntries(
  Object.entries(DELTA_SHAPE).map(([kind, shape]) => [kind, `{"type":"${shape.type}","seq":`]),
) as Record<keyof typeof DELTA_SHAPE, string>;
const DELTA_HEAD_BYTES = Object.fromEntries(
  Object.entries(DELTA_HEADS).map(([kind, head]) => [kind, Buffer.from(head)]),
) as Record<keyof typeof DELTA_SHAPE, Buffer>;

function deltaLineHead(event: EventOf<"assistant/chunk">): string {
  return DELTA_HEADS[event.kind];
}

/** The text between seq and the delta, kept while turn, step, block and kind stay the same. */
let middle = { turn: -1, step: -1, block: -1, kind: "", text: "", bytes: Buffer.alloc(0) };

function deltaLineMiddle(event: EventOf<"assistant/chunk">): typeof middle {
  const { turn, step, block, kind } = event;
  if (
    middle.turn !== turn ||
    middle.step !== step ||
    middle.block !== block ||
    middle.kind !== kind
  ) {
    const field = DELTA_SHAPE[kind].field;
    const text = `,"turn":${turn},"step":${step},"block":${block},"kind":"${kind}","${field}":`;
    middle = { turn, step, block, kind, text, bytes: Buffer.from(text) };
  }
  return middle;
}

/** Room `encodeDeltaLine` may need: the fixed parts, seq, and the delta at its most escaped. */
export function deltaLineMaxBytes(event: EventOf<"assistant/chunk">): number {
  return 200 + event.delta.length * 6;
}

/**
 * Encodes the delta line of a chunk event into `buffer` at `at` and returns the end: exactly
 * the bytes of `projectEventText(event)`, without building the line as a string first. The
 * caller makes `deltaLineMaxBytes(event)` of room.
 */
export function encodeDeltaLine(
  event: EventOf<"assistant/chunk">,
  buffer: Buffer,
  at: number,
): number {
  const head = DELTA_HEAD_BYTES[event.kind];
  buffer.set(head, at);
  let end = writeDigits(buffer, at + head.length, event.seq);
  const { bytes } = deltaLineMiddle(event);
  buffer.set(bytes, end);
  end += bytes.length;
  end += buffer.write(JSON.stringify(event.delta), end);
  buffer[end] = 0x7d; // }
  buffer[end + 1] = 0x0a; // newline
  return end + 2;
}

/** Writes a non-negative safe integer in decimal; returns the end. */
function writeDigits(buffer: Buffer, at: number, value: number): number {
  let digits = 1;
  for (let rest = value; rest >= 10; rest = Math.floor(rest / 10)) digits++;
  let rest = value;
  for (let i = at + digits - 1; i >= at; i--) {
    buffer[i] = 0x30 + (rest % 10);
    rest = Math.floor(rest / 10);
  }
  return at + digits;
}

/**
 * The answer of a run: the text and thinking of its last complete assistant message, read
 * from the message itself (nothing per delta is kept). The run's figures (turns, steps,
 * usage, cost) are session/figures.ts's fold.
 */
export class LastAnswer {
  /** Text blocks of the last complete assistant message. */
  text = "";
  /** Thinking blocks of the last complete assistant message. */
  thinking = "";
  /** The provider's stop reason of the last complete assistant message (null: none came). */
  stopReason: string | null = null;
  /** Why the last message holds no answer (missing-answer.ts), null when it answers. */
  missing: MissingAnswer | null = null;

  /** True when the answer is a plan (`plan/proposed`) that nobody went on from: exec's plan mode. */
  plan = false;

  observe(event: SessionEvent): void {
    if (event.type === "plan/proposed") {
      // The turn ends with it when nobody can approve it; a later message replaces it.
      this.text = event.plan;
      this.missing = null;
      this.plan = true;
      return;
    }
    if (event.type !== "assistant/message") return;
    this.plan = false;
    this.text = blockText(event.content, "text");
    this.thinking = blockText(event.content, "thinking");
    this.stopReason = event.stop_reason;
    this.missing = missingAnswer(event);
  }
}

/** The text of a native message's text (or thinking) blocks, blank-line separated. */
function blockText(content: JsonValue[], kind: "text" | "thinking"): string {
  return readNative(content)
    .flatMap((block) => (block.kind === kind ? [block.text] : []))
    .join("\n\n");
}

/**
 * A call the permission policy refused, on the `result` line (`permission_denials`): the
 * narrowest allow rule that would have let it run (`edit(src/math.js)`), or null when no allow
 * rule would (a deny rule, the mode, a hook or plugin, an ask rule, a protected file).
 */
export interface PermissionDenial {
  call_id: string;
  tool: string;
  arguments: JsonValue;
  rule: string | null;
  /** Who refused it: `tool/call.decision.by` (`default` is exec, which cannot ask). */
  by: string;
  reason: string;
}

/** The denial entry of a refused `tool/call`. */
export function permissionDenial(
  call: EventOf<"tool/call">,
  rule: string | null,
): PermissionDenial {
  return {
    call_id: call.call_id,
    tool: call.name,
    arguments: call.arguments,
    rule,
    by: call.decision.by,
    reason: call.decision.reason ?? "",
  };
}

export interface RunEnd {
  sessionId: string;
  /** The turn/end reason of the last turn. */
  reason: string;
  exitCode: number;
  error?: string;
  /**
   * Why the model stopped: `refusal`, `content_filter` or `empty` when a completed turn has no
   * answer, else the provider's stop reason of the last message; null when none arrived.
   */
  stopReason: string | null;
  durationMs: number;
  /** The calls of the turn that the permission policy refused, in order. */
  permissionDenials: PermissionDenial[];
  /** The subagent sessions the turn ran, rolled up; absent when it ran none. */
  subagents?: SubagentFigures | undefined;
}

/** The last line of stream-json, and the whole output of `--output-format json`. */
export function resultLine(figures: Figures, answer: string, end: RunEnd): StreamLine {
  return {
    type: "result",
    session_id: end.sessionId,
    result: answer,
    is_error: end.exitCode !== 0,
    reason: end.reason,
    stop_reason: end.stopReason,
    exit_code: end.exitCode,
    ...(end.error === undefined ? {} : { error: end.error }),
    turns: figures.turns,
    steps: figures.steps,
    usage: figures.usage,
    cost: figures.cost,
    duration_ms: end.durationMs,
    permission_denials: end.permissionDenials,
    ...(end.subagents ? { subagents: end.subagents } : {}),
  };
}

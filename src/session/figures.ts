// The figures of a session (or of any run of its events): turns, steps, failed requests, tool
// calls, usage, cost and durations, folded from durable events alone; with `detail`, also each
// request's usage and cost and each turn's cost. One fold for every consumer: exec's result
// line (present/stream-json.ts), `sessions list` and `show`, `sessions stats` and exports.
// Pure and incremental; event types it does not count are skipped.
import { type EventOf, type SessionEvent, type Usage, zeroUsage } from "./events.ts";

export interface Figures {
  /** `turn/start` events. */
  turns: number;
  /** Completed model requests (`step/end`); failed attempts count in `failed_steps`. */
  steps: number;
  /** `step/failed` events, retried or not. */
  failed_steps: number;
  /** `tool/call` events, refused calls included. */
  tool_calls: number;
  /** Summed over completed steps and summarising requests (`context/compaction`). */
  usage: Usage;
  /**
   * Sum of the known costs of steps and summarising requests in USD; null while none had a
   * known price.
   */
  cost: number | null;
  /** Time inside turns: each `turn/start` to its `turn/end`, summed, in ms. */
  turn_ms: number;
  /** Time in model requests: each `step/start` to its `step/end` or `step/failed`, in ms. */
  request_ms: number;
  /** The first event's time to the last event's, in ms. */
  span_ms: number;
}

/** One completed model request (`step/end`). */
export interface StepFigures {
  turn: number;
  step: number;
  /** The seq of its `step/end`. */
  seq: number;
  usage: Usage;
  cost: number | null;
}

/** One turn's requests: their cost (null while none had a known price) and usage. */
export interface TurnFigures {
  turn: number;
  steps: number;
  usage: Usage;
  cost: number | null;
}

/** One compaction (`context/compaction`): the history's tokens before and after, its cost. */
export interface CompactionFigures {
  seq: number;
  turn: number | null;
  trigger: "auto" | "manual";
  tokens_before: number;
  tokens_after: number;
  usage: Usage;
  cost: number | null;
}

/** The per-request, per-turn and per-compaction figures a `detail` fold keeps beside the totals. */
export interface FiguresDetail {
  steps: StepFigures[];
  turns: TurnFigures[];
  compactions: CompactionFigures[];
}

/** Adds events one at a time (`observe`); `figures` is the total so far. */
export class FiguresFold {
  /** With `detail`, every request and turn is kept too (`sessions stats`); else totals only. */
  readonly detail: FiguresDetail | null;

  constructor(options: { detail?: boolean } = {}) {
    this.detail = options.detail ? { steps: [], turns: [], compactions: [] } : null;
  }

  private readonly total: Figures = {
    turns: 0,
    steps: 0,
    failed_steps: 0,
    tool_calls: 0,
    usage: zeroUsage(),
    cost: null,
    turn_ms: 0,
    request_ms: 0,
    span_ms: 0,
  };
  private firstTs: string | null = null;
  private lastTs: string | null = null;
  /** Start times of turns (by turn) and requests (by turn/step) that have not ended yet. */
  private readonly openTurns = new Map<number, number>();
  private readonly openSteps = new Map<string, number>();

  get figures(): Figures {
    const first = parseTime(this.firstTs);
    const last = parseTime(this.lastTs);
    this.total.span_ms = first === null || last === null ? 0 : Math.max(0, last - first);
    return this.total;
  }

  /** Cheap for the events that are only counted (chunks are the bulk): times stay text. */
  observe(event: SessionEvent): void {
    if (typeof event.ts === "string") {
      this.firstTs ??= event.ts;
      this.lastTs = event.ts;
    }
    switch (event.type) {
      case "turn/start":
        this.total.turns++;
        begin(this.openTurns, event.turn, event.ts);
        break;
      case "turn/end":
        this.total.turn_ms += elapsed(this.openTurns, event.turn, event.ts);
        break;
      case "step/start":
        begin(this.openSteps, `${event.turn}/${event.step}`, event.ts);
        break;
      case "step/failed":
        this.total.failed_steps++;
        this.total.request_ms += elapsed(this.openSteps, `${event.turn}/${event.step}`, event.ts);
        break;
      case "step/end":
        this.countStep(event.usage, event.cost);
        if (this.detail) keepStep(this.detail, event);
        this.total.request_ms += elapsed(this.openSteps, `${event.turn}/${event.step}`, event.ts);
        break;
      case "tool/call":
        this.total.tool_calls++;
        break;
      case "context/compaction":
        this.addUsage(event.usage, event.cost);
        if (this.detail) keepCompaction(this.detail, event);
        break;
      default:
        break;
    }
  }

  private countStep(usage: Usage, cost: number | null): void {
    this.total.steps++;
    this.addUsage(usage, cost);
  }

  private addUsage(usage: Usage, cost: number | null): void {
    const sum = this.total.usage;
    for (const key of Object.keys(sum) as (keyof Usage)[]) sum[key] += usage[key];
    if (cost !== null) this.total.cost = (this.total.cost ?? 0) + cost;
  }
}

/** Adds a request to the detail, and to its turn's figures (a turn seen first here is added). */
function keepStep(
  detail: FiguresDetail,
  event: { turn: number; step: number; seq: number; usage: Usage; cost: number | null },
): void {
  const usage = { ...event.usage };
  detail.steps.push({
    turn: event.turn,
    step: event.step,
    seq: event.seq,
    usage,
    cost: event.cost,
  });
  let turn = detail.turns.find((t) => t.turn === event.turn);
  if (!turn) {
    turn = { turn: event.turn, steps: 0, usage: zeroUsage(), cost: null };
    detail.turns.push(turn);
  }
  turn.steps++;
  for (const key of Object.keys(usage) as (keyof Usage)[]) turn.usage[key] += usage[key];
  if (event.cost !== null) turn.cost = (turn.cost ?? 0) + event.cost;
}

function keepCompaction(detail: FiguresDetail, event: EventOf<"context/compaction">): void {
  detail.compactions.push({
    seq: event.seq,
    turn: event.turn ?? null,
    trigger: event.trigger,
    tokens_before: event.tokens_before,
    tokens_after: event.tokens_after,
    usage: { ...event.usage },
    cost: event.cost,
  });
}

/** The figures of a whole run of events. */
export function foldFigures(events: Iterable<SessionEvent>): Figures {
  const fold = new FiguresFold();
  for (const event of events) fold.observe(event);
  return fold.figures;
}

/** An event's `ts` in ms, or null when it is missing or unreadable. */
function parseTime(ts: string | null | undefined): number | null {
  const ms = typeof ts === "string" ? Date.parse(ts) : Number.NaN;
  return Number.isFinite(ms) ? ms : null;
}

/** Keeps the time a turn or request began, under its key. */
function begin<K>(open: Map<K, number>, key: K, ts: string): void {
  const at = parseTime(ts);
  if (at === null) open.delete(key);
  else open.set(key, at);
}

/** Ms since the start kept under `key` (then forgotten); 0 if unknown or the clock went back. */
function elapsed<K>(open: Map<K, number>, key: K, ts: string): number {
  const start = open.get(key);
  open.delete(key);
  const at = parseTime(ts);
  return start === undefined || at === null ? 0 : Math.max(0, at - start);
}

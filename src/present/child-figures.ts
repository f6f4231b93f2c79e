// The subagent sessions a run's `task` calls ran (docs/subagents.md), rolled up for the
// `result` line of stream-json and json (docs/stream-json.md): each child's steps, usage, cost
// and how its turn ended, by the parent call that ran it, and their cost with the parent's.
// Fed each child's durable events (`subagent/event`) by exec-output.ts, one turn at a time.
import type { SessionEvent, Usage } from "../session/events.ts";
import { FiguresFold } from "../session/figures.ts";

/** One child session as the `result` line lists it. */
interface ChildRow {
  session_id: string;
  parent_call_id: string;
  /** The child's turn/end reason; null when it had not ended (a cancel in between). */
  reason: string | null;
  steps: number;
  tool_calls: number;
  usage: Usage;
  cost: number | null;
}

/** The `result` line's `subagents` object. */
export interface SubagentFigures {
  sessions: ChildRow[];
  /** The children's known costs summed; null while none had a known price. */
  cost: number | null;
  /** The parent's cost for the turn and the children's together; null when neither is known. */
  total_cost: number | null;
}

export class ChildFigures {
  private readonly children = new Map<
    string,
    { callId: string; fold: FiguresFold; reason: string | null }
  >();

  /** One durable event of a child (`subagent/event`). */
  observe(child: { callId: string; sessionId: string; event: SessionEvent }): void {
    let entry = this.children.get(child.sessionId);
    if (!entry) {
      entry = { callId: child.callId, fold: new FiguresFold(), reason: null };
      this.children.set(child.sessionId, entry);
    }
    entry.fold.observe(child.event);
    if (child.event.type === "turn/end") entry.reason = child.event.reason;
  }

  /** The roll-up with the parent's own cost; undefined when no child ran. */
  summary(parentCost: number | null): SubagentFigures | undefined {
    if (this.children.size === 0) return undefined;
    const sessions = [...this.children].map(([id, { callId, fold, reason }]) => {
      const { steps, tool_calls, usage, cost } = fold.figures;
      return { session_id: id, parent_call_id: callId, reason, steps, tool_calls, usage, cost };
    });
    const cost = sumKnown(sessions.map((row) => row.cost));
    return { sessions, cost, total_cost: sumKnown([parentCost, cost]) };
  }
}

function sumKnown(costs: readonly (number | null)[]): number | null {
  const known = costs.filter((cost): cost is number => cost !== null);
  return known.length === 0 ? null : known.reduce((sum, cost) => sum + cost, 0);
}

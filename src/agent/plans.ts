// The plans that end plan mode (`exit_plan`, exit-plan-tool.ts), through the surface API's
// asks: each is recorded (`plan/proposed`), put on the bus as an `agent/ask` carrying `plan`,
// and waits for `agent.answer(id, { outcome: "approve", mode })` or a `deny` whose reason is
// the user's feedback. An approval switches the permission mode at once (the next call decided
// on runs in it, in the same turn); with no surface listening nobody can approve, and the turn
// ends with the plan. The decision is recorded (`plan/decided`). Built by compose-session.ts.
import { randomUUID } from "node:crypto";
import type { PermissionMode } from "../config/index.ts";
import type { JsonValue } from "../session/events.ts";
import type { SessionWriter } from "../session/writer.ts";
import type { CallPresentation } from "../tools/presentation.ts";
import { AskWaitlist } from "./ask-waitlist.ts";
import type { AgentBus } from "./bus-events.ts";
import type { AgentAsk, AnswerResult, AskDecision } from "./pending-asks.ts";

/** What the model is told when nobody can approve its plan (exec without an input channel). */
export const NO_APPROVER =
  "No user is available to approve the plan (no interactive surface): the plan is this run's output and the turn ends here. Do not carry it out.";

/** A plan as the tool hands it over. */
interface Proposal {
  callId: string;
  turn: number;
  plan: string;
  arguments: JsonValue;
  presentation: CallPresentation;
  signal: AbortSignal;
}

/** The modes an approved plan continues in. */
type ApprovedMode = "default" | "accept-edits";

/** How a plan's ask ended. */
export type PlanOutcome =
  | { approved: true; mode: ApprovedMode }
  | { approved: false; by: "user"; feedback?: string }
  | { approved: false; by: "default"; reason: string };

/** What the desk reads and changes of its session. */
interface PlanSession {
  bus: AgentBus;
  writer: SessionWriter;
  sessionId: string;
  /** The session's permission mode now. */
  mode(): PermissionMode;
  /** Switches it (Agent.setPermissionMode's path: the guard, subagents, the bus). */
  setMode(mode: PermissionMode): void;
}

export class PlanDesk {
  private readonly waiting: AskWaitlist<PlanOutcome>;
  /** Set when nobody could decide on a plan: the turn ends after this step (turn.ts). */
  private ending = false;

  constructor(private readonly session: PlanSession) {
    this.waiting = new AskWaitlist(session.bus, none, NO_APPROVER);
  }

  /** True while the session is in plan mode: only then is `exit_plan` offered. */
  get planning(): boolean {
    return this.session.mode() === "plan";
  }

  /** Proposes the plan; resolves with the decision (recorded, the mode switched if approved). */
  async propose(proposal: Proposal): Promise<PlanOutcome> {
    const { writer } = this.session;
    const { callId } = proposal;
    writer.append({ type: "plan/proposed", call_id: callId, plan: proposal.plan });
    const outcome = await this.waiting.wait(this.describe(proposal), proposal.signal);
    writer.append({ type: "plan/decided", call_id: callId, ...decidedFields(outcome) });
    if (outcome.approved) this.session.setMode(outcome.mode);
    if (!outcome.approved && outcome.by === "default" && !proposal.signal.aborted) {
      this.ending = true;
    }
    return outcome;
  }

  /** True once after a plan nobody could decide on: the turn ends with it (turn.ts). */
  takeTurnEnd(): boolean {
    const ending = this.ending;
    this.ending = false;
    return ending;
  }

  /** True when `id` is a plan waiting here. */
  owns(id: string): boolean {
    return this.waiting.get(id) !== undefined;
  }

  /** Decides on a plan: `approve` (with the mode to continue in) or `deny` (keep planning). */
  answer(id: string, decision: AskDecision): AnswerResult {
    if (!this.waiting.get(id)) return { ok: false, error: "unknown", message: `no plan ${id}` };
    if (decision.outcome === "approve") {
      const mode = decision.mode ?? "default";
      if (mode !== "default" && mode !== "accept-edits") {
        return { ok: false, error: "not-offered", message: `plan ${id}: no mode ${mode}` };
      }
      this.waiting.settle(id, { approved: true, mode });
      return { ok: true };
    }
    if (decision.outcome !== "deny") {
      return { ok: false, error: "invalid", message: `plan ${id}: approve it or deny it` };
    }
    if (decision.by === "default") {
      const reason = decision.reason ?? NO_APPROVER;
      this.waiting.settle(id, { approved: false, by: "default", reason });
      return { ok: true };
    }
    const feedback = decision.reason?.trim();
    this.waiting.settle(id, { approved: false, by: "user", ...(feedback ? { feedback } : {}) });
    return { ok: true };
  }

  pending(): AgentAsk[] {
    return this.waiting.pending();
  }

  private describe(proposal: Proposal): AgentAsk {
    return {
      id: randomUUID(),
      sessionId: this.session.sessionId,
      turn: proposal.turn,
      callId: proposal.callId,
      name: "exit_plan",
      arguments: proposal.arguments,
      tool: { readOnly: true, kind: "think" },
      presentation: proposal.presentation,
      askedBy: { by: "model" },
      reason: "the model's plan is ready: approve it, or keep planning",
      options: ["approve", "deny"],
      plan: { text: proposal.plan },
    };
  }
}

/** The `plan/decided` fields of an outcome. */
function decidedFields(outcome: PlanOutcome) {
  if (outcome.approved) return { approved: true, mode: outcome.mode, by: "user" as const };
  if (outcome.by === "user") {
    const feedback = outcome.feedback === undefined ? {} : { feedback: outcome.feedback };
    return { approved: false, ...feedback, by: "user" as const };
  }
  return { approved: false, by: "default" as const, reason: outcome.reason };
}

function none(reason: string): PlanOutcome {
  return { approved: false, by: "default", reason };
}

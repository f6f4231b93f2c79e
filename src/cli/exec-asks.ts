// `codewhale exec` cannot ask anyone: it subscribes to the agent's `agent/ask` and answers
// each ask at once with a denial whose reason says exactly how to allow the call next time
// (permissions/ask.ts `execDenialMessage`); the model reads it as the call's result. It keeps
// the narrowest allow rule of each refused ask, so that the refusal is shown with it
// (`ExecRefusals.of`). An ask to run a call again outside the OS sandbox is allowed once only when
// the rule that let the call run was given with `--allow`, else denied saying so. Subscribed by
// exec-command.ts (and by loop tests that want exec's answers).
import { type Agent, type AgentAsk, NO_APPROVER, NO_USER } from "../agent/index.ts";
import { execDenialMessage } from "../permissions/index.ts";
import type { EventOf } from "../session/events.ts";

/** The decisions that are the permission policy's refusals, whoever made them. */
const POLICY_DENIERS: ReadonlySet<string> = new Set(["rule", "mode", "hook", "plugin"]);

/** The refused calls of a run: asks exec denied, and calls a rule, mode, hook or plugin denied. */
export class ExecRefusals {
  /** Call id → the allow rule that would stop it asking (null: none would). */
  private readonly asked = new Map<string, string | null>();

  /** `allowFlags`: the run's `--allow` rules, the only ones that let a call leave the sandbox. */
  constructor(private readonly allowFlags: readonly string[] = []) {}

  /** Whether `--allow` named the rule that let an escalation's call run. */
  escalates(ask: AgentAsk): boolean {
    const rule = ask.escalation?.rule;
    return rule !== undefined && this.allowFlags.includes(rule);
  }

  noteAsk(callId: string, rule: string | undefined): void {
    this.asked.set(callId, rule ?? null);
  }

  /**
   * The refusal of a recorded call, with the narrowest allow rule when one would let it run;
   * undefined for a call that ran, was invalid, or was cancelled.
   */
  readonly of = (call: EventOf<"tool/call">): { rule: string | null } | undefined => {
    if (call.decision.outcome !== "deny") return undefined;
    const asked = this.asked.get(call.call_id);
    if (asked !== undefined) return { rule: asked };
    return POLICY_DENIERS.has(call.decision.by) ? { rule: null } : undefined;
  };
}

/** Denies every ask of `agent` with exec's advice; returns the unsubscribe. */
export function refuseAsks(agent: Agent, refusals?: ExecRefusals): () => void {
  return agent.bus.on("agent/ask", (ask) => refuseAsk(agent, ask, refusals));
}

/** Denies one ask with exec's advice: how to allow the call next time. */
export function refuseAsk(agent: Agent, ask: AgentAsk, refusals?: ExecRefusals): void {
  if (ask.escalation) {
    answerEscalation(agent, ask, refusals);
    return;
  }
  if (ask.question || ask.plan) {
    // A question from the model (ask_user), or its plan (exit_plan): nobody is here to answer
    // it; a plan is then the turn's answer (the turn ends with it).
    const reason = ask.plan ? NO_APPROVER : NO_USER;
    agent.dispatch({
      type: "answer",
      id: ask.id,
      decision: { outcome: "deny", by: "default", reason },
    });
    return;
  }
  const reason = execDenialMessage(ask, ask.reason, agent.permissionContext);
  refusals?.noteAsk(ask.callId, ask.sessionRule);
  agent.dispatch({
    type: "answer",
    id: ask.id,
    decision: { outcome: "deny", by: "default", reason },
  });
}

/** Runs a call again outside the sandbox only when `--allow` named the rule that let it run. */
function answerEscalation(agent: Agent, ask: AgentAsk, refusals?: ExecRefusals): void {
  if (refusals?.escalates(ask)) {
    agent.dispatch({ type: "answer", id: ask.id, decision: { outcome: "allow", by: "default" } });
    return;
  }
  const reason = `exec runs a command again outside the OS sandbox only when the rule that allowed it was given with --allow (e.g. --allow '${ask.name}(…)')`;
  agent.dispatch({
    type: "answer",
    id: ask.id,
    decision: { outcome: "deny", by: "default", reason },
  });
}

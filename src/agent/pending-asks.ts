// The asks of one session, owned by its guard (session-guard.ts): when a call's decision is
// `ask`, the tool-call path (tool-calls.ts) settles it here. Each ask goes on the bus as the
// transient `agent/ask` and waits for `answer(id, decision)` from any surface; the first answer
// wins. The wait ends with the turn (cancel, a signal, dispose) as a denial the model reads.
import { randomUUID } from "node:crypto";
import type { PermissionContext, ToolTraits } from "../permissions/index.ts";
import { editsProtected, sessionGrantRule } from "../permissions/index.ts";
import type { JsonValue, ToolDecision } from "../session/events.ts";
import type { CallPresentation } from "../tools/presentation.ts";
import type { AgentBus } from "./bus-events.ts";
import type { CallDecision } from "./tool-call-decision.ts";

/** The answers an ask may accept: `allow_session` only where an allow rule would hold. */
export type AskOption = "allow_once" | "allow_session" | "deny" | "answer" | "approve";

/** An ask as surfaces see it on the bus (`agent/ask`). */
export interface AgentAsk {
  /** Unique in the process; answer with `agent.answer(id, decision)`. */
  id: string;
  sessionId: string;
  turn: number;
  callId: string;
  name: string;
  /** What the call runs with if allowed (after any rewrite); `tool/call.arguments`. */
  arguments: JsonValue;
  /** The model's own arguments, when a hook or plugin rewrote them: show both. */
  originalArguments?: JsonValue;
  rewrittenBy?: string;
  rewriteReason?: string;
  /** What the permission rules know of the tool. */
  tool: ToolTraits;
  /** Title, kind and locations of the call, from the tool's static presenter. */
  presentation: CallPresentation;
  /** Who asked: the mode (`by: "mode"`), an ask rule, a hook or a plugin, and which. */
  askedBy: { by: string; rule?: string };
  /** Why approval is needed, one line. */
  reason: string;
  /** The answers this ask accepts. */
  options: readonly AskOption[];
  /** With `allow_session`: the allow rule it adds for the rest of the session. */
  sessionRule?: string;
  /** Set when the call edits a protected file: a surface shows all it will write. */
  protectedFile?: true;
  /**
   * Set when the call already ran and the OS sandbox refused it: the ask is whether to run it
   * again outside the sandbox (allow once or deny only). `rule` is the allow rule that let the
   * call run, when one did (exec escalates only when `--allow` named it).
   */
  escalation?: { rule?: string };
  /**
   * Set when a subagent's call asks (docs/subagents.md): the child session, the parent's
   * `task` call that runs it and that call's description. Answer it like any other ask.
   */
  subagent?: { sessionId: string; callId: string; description: string };
  /**
   * Set when the model asks the user a question (`ask_user`): answer with `{ outcome:
   * "answer", answer }` (one of `options`, or any text when `freeText`), or `deny` to decline.
   * `options` of the ask are then `answer` and `deny`.
   */
  question?: { text: string; options: string[]; freeText: boolean };
  /**
   * Set when the model ends plan mode with a plan (`exit_plan`): `approve` it with the mode to
   * continue in (`default` unless `accept-edits`), or `deny` to keep planning, the `reason`
   * being the user's feedback for the model. `options` of the ask are then `approve` and `deny`.
   */
  plan?: { text: string };
}

/** A surface's answer. `by` is "user" when a person answered (the default). */
export type AskDecision = { by?: "user" | "default" } & (
  | { outcome: "allow"; scope?: "once" | "session" }
  | { outcome: "deny"; reason?: string }
  /** The answer to a question (`ask.question`). */
  | { outcome: "answer"; answer: string }
  /** The approval of a plan (`ask.plan`), and the mode the session continues in. */
  | { outcome: "approve"; mode?: "default" | "accept-edits" }
);

/** `answer` tells a late, unknown, malformed or not offered answer apart; it never throws. */
export type AnswerResult =
  | { ok: true }
  | { ok: false; error: "unknown" | "answered" | "invalid" | "not-offered"; message: string };

/** A call whose decision is `ask`, as the tool-call path (tool-calls.ts) hands it over. */
interface AskedCall {
  turn: number;
  /** The running turn's signal: the wait ends with it. */
  signal: AbortSignal;
  callId: string;
  name: string;
  /** What the permission rules know of the tool. */
  tool: ToolTraits;
  presentation: CallPresentation;
  /** "Run again outside the sandbox" (sandbox-escalation.ts): once or deny, no session rule. */
  escalation?: { rule?: string };
}

/** What the asks read from the session guard that owns them (session-guard.ts). */
export interface AskSession {
  readonly bus: AgentBus;
  readonly sessionId: string;
  readonly context: PermissionContext;
  /** Adds the allow rule of an "allow for this session" answer. */
  grant(rule: string): void;
}

/** How an ask ended: the decision `tool/call` records, and the rule to grant, if any. */
interface Answer {
  decision: ToolDecision;
  grant?: string;
}

interface Waiting {
  ask: AgentAsk;
  settle(answer: Answer): void;
}

const ONCE_OR_DENY: readonly AskOption[] = Object.freeze(["allow_once", "deny"]);
const ALL_OPTIONS: readonly AskOption[] = Object.freeze(["allow_once", "allow_session", "deny"]);

/** How many settled ids are remembered, so a late answer is told apart from an unknown id. */
const SETTLED_KEPT = 1024;

export class PendingAsks {
  private readonly waiting = new Map<string, Waiting>();
  private readonly settled = new Set<string>();

  constructor(private readonly session: AskSession) {}

  /**
   * Settles a decision: an `ask` goes on the bus and waits for its answer, the turn's end or
   * dispose, and becomes the answer's allow or deny (granting the session rule when the user
   * allowed the call for the session); any other decision passes through.
   */
  async settle(call: AskedCall, decided: CallDecision): Promise<CallDecision> {
    if (decided.decision.outcome !== "ask") return decided;
    const answer = await this.wait(call, decided);
    if (answer.grant !== undefined) this.session.grant(answer.grant);
    return { ...decided, decision: answer.decision };
  }

  private wait(call: AskedCall, decided: CallDecision): Promise<Answer> {
    const { signal } = call;
    if (signal.aborted) return Promise.resolve(deny("user", "cancelled"));
    const ask = this.describe(call, decided);
    if (this.session.bus.listenerCount("agent/ask") === 0) {
      const why = `${call.name} needs approval (${ask.reason}) and no surface is attached to answer it.`;
      return Promise.resolve(deny("default", why));
    }
    return new Promise<Answer>((resolve) => {
      const onAbort = () => this.end(ask.id, deny("user", "cancelled"));
      signal.addEventListener("abort", onAbort, { once: true });
      this.waiting.set(ask.id, {
        ask,
        settle: (answer) => {
          signal.removeEventListener("abort", onAbort);
          resolve(answer);
        },
      });
      this.session.bus.emit("agent/ask", ask);
    });
  }

  /** Answers a waiting ask; the first answer wins. */
  answer(id: string, decision: AskDecision): AnswerResult {
    const waiting = this.waiting.get(id);
    if (!waiting) {
      return this.settled.has(id)
        ? { ok: false, error: "answered", message: `ask ${id} was already answered or ended` }
        : { ok: false, error: "unknown", message: `no ask ${id} in this session` };
    }
    const option = optionOf(decision);
    if (option === undefined) {
      // Fail closed on what a typed caller cannot send (JSON from a client): nothing is allowed.
      return { ok: false, error: "invalid", message: `ask ${id}: not an allow or deny answer` };
    }
    if (!waiting.ask.options.includes(option)) {
      return { ok: false, error: "not-offered", message: `ask ${id} does not offer ${option}` };
    }
    this.end(id, answerOf(decision, waiting.ask));
    return { ok: true };
  }

  /** The asks still waiting for an answer (a surface that attaches late shows them). */
  pending(): AgentAsk[] {
    return [...this.waiting.values()].map((waiting) => waiting.ask);
  }

  /** Ends every waiting ask with a denial (the session closes). */
  endAll(reason: string): void {
    for (const id of [...this.waiting.keys()]) this.end(id, deny("default", reason));
  }

  private end(id: string, answer: Answer): void {
    const waiting = this.waiting.get(id);
    if (!waiting) return;
    this.waiting.delete(id);
    this.settled.add(id);
    if (this.settled.size > SETTLED_KEPT) {
      const oldest = this.settled.values().next().value;
      if (oldest !== undefined) this.settled.delete(oldest);
    }
    waiting.settle(answer);
  }

  private describe(call: AskedCall, decided: CallDecision): AgentAsk {
    const { decision } = decided;
    const asked = {
      name: call.name,
      arguments: decided.arguments,
      tool: call.tool,
      askedBy: { by: decision.by, ...(decision.rule ? { rule: decision.rule } : {}) },
    };
    const { context } = this.session;
    const sessionRule = call.escalation ? undefined : sessionGrantRule(asked, context);
    return {
      id: randomUUID(),
      sessionId: this.session.sessionId,
      turn: call.turn,
      callId: call.callId,
      name: call.name,
      arguments: decided.arguments,
      ...decided.rewrite,
      tool: call.tool,
      presentation: call.presentation,
      askedBy: asked.askedBy,
      reason: decision.reason ?? "approval required",
      options: sessionRule === undefined ? ONCE_OR_DENY : ALL_OPTIONS,
      ...(sessionRule === undefined ? {} : { sessionRule }),
      ...(!call.escalation && editsProtected(asked, context)
        ? { protectedFile: true as const }
        : {}),
      ...(call.escalation ? { escalation: call.escalation } : {}),
    };
  }
}

function optionOf(decision: AskDecision): AskOption | undefined {
  if (decision.outcome === "deny") return "deny";
  if (decision.outcome !== "allow") return undefined;
  if (decision.scope === undefined || decision.scope === "once") return "allow_once";
  return decision.scope === "session" ? "allow_session" : undefined;
}

function answerOf(decision: AskDecision, ask: AgentAsk): Answer {
  const by = decision.by ?? "user";
  if (decision.outcome === "allow") {
    const grant = decision.scope === "session" ? ask.sessionRule : undefined;
    return { decision: { outcome: "allow", by, reason: ask.reason }, ...(grant ? { grant } : {}) };
  }
  // (An `answer` never gets here: optionOf refuses it for a call's ask.)
  if (decision.outcome === "deny" && decision.reason !== undefined) {
    return deny(by, decision.reason);
  }
  return deny(by, by === "user" ? "the user denied this call" : ask.reason);
}

function deny(by: "user" | "default", reason: string): Answer {
  return { decision: { outcome: "deny", by, reason } };
}

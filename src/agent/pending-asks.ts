// The asks of one agent: when the pre-execute composition says `ask`, the call waits here. Each
// ask goes on the bus as the transient `agent/ask` and waits for `answer(id, decision)` from any
// surface; the first answer wins. The wait ends with the turn (cancel, a signal, dispose) as a
// denial the model reads. Created by compose-session.ts; the agent's `answer` and `cancel` call it.
import { randomUUID } from "node:crypto";
import type { AskCall, PermissionContext, ToolTraits } from "../permissions/index.ts";
import { editsProtected, sessionGrantRule } from "../permissions/index.ts";
import type { JsonValue } from "../session/events.ts";
import type { CallPresentation } from "../tools/presentation.ts";
import type { AgentBus } from "./bus-events.ts";

/** The answers an ask may accept: `allow_session` only where an allow rule would hold. */
export type AskOption = "allow_once" | "allow_session" | "deny";

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
}

/** A surface's answer. `by` is "user" when a person answered (the default). */
export type AskDecision = { by?: "user" | "default" } & (
  | { outcome: "allow"; scope?: "once" | "session" }
  | { outcome: "deny"; reason?: string }
);

/** `answer` tells a late, unknown, malformed or not offered answer apart; it never throws. */
export type AnswerResult =
  | { ok: true }
  | { ok: false; error: "unknown" | "answered" | "invalid" | "not-offered"; message: string };

/** What the tool-call path asks about: the effective call and why it asks. */
export interface AskRequest extends AskCall {
  callId: string;
  reason: string;
  askedBy: { by: string; rule?: string };
  originalArguments?: JsonValue;
}

/** How an ask ended, for the decision recorded on `tool/call`. */
export interface AskAnswer {
  outcome: "allow" | "deny";
  /** "session": the suggested rule is granted for the rest of the session. */
  scope: "once" | "session";
  by: "user" | "default";
  reason: string;
}

/** The one function the tool-call path awaits for an `ask`. */
export type AskFunction = (request: AskRequest) => Promise<AskAnswer>;

/** What the asks read from the session they belong to. */
export interface AskSession {
  bus: AgentBus;
  sessionId: string;
  permissions: PermissionContext;
  /** The running turn's number and signal (asks happen only while a turn runs). */
  turn(): { turn: number; signal: AbortSignal | undefined };
  present(name: string, args: JsonValue): CallPresentation;
}

interface Waiting {
  ask: AgentAsk;
  settle(answer: AskAnswer): void;
}

const ONCE_OR_DENY: readonly AskOption[] = Object.freeze(["allow_once", "deny"]);
const ALL_OPTIONS: readonly AskOption[] = Object.freeze(["allow_once", "allow_session", "deny"]);

/** How many settled ids are remembered, so a late answer is told apart from an unknown id. */
const SETTLED_KEPT = 1024;

export class PendingAsks {
  private readonly waiting = new Map<string, Waiting>();
  private readonly settled = new Set<string>();

  constructor(private readonly session: AskSession) {}

  /** Puts the ask on the bus and waits for its answer, the turn's end, or dispose. */
  readonly ask: AskFunction = (request) => {
    const { turn, signal } = this.session.turn();
    if (signal?.aborted) return Promise.resolve(deny("user", "cancelled"));
    if (this.session.bus.listenerCount("agent/ask") === 0) {
      const why = `${request.name} needs approval (${request.reason}) and no surface is attached to answer it.`;
      return Promise.resolve(deny("default", why));
    }
    const ask = this.describe(request, turn);
    return new Promise<AskAnswer>((resolve) => {
      const onAbort = () => this.end(ask.id, deny("user", "cancelled"));
      signal?.addEventListener("abort", onAbort, { once: true });
      this.waiting.set(ask.id, {
        ask,
        settle: (answer) => {
          signal?.removeEventListener("abort", onAbort);
          resolve(answer);
        },
      });
      this.session.bus.emit("agent/ask", ask);
    });
  };

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

  private end(id: string, answer: AskAnswer): void {
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

  private describe(request: AskRequest, turn: number): AgentAsk {
    const sessionRule = sessionGrantRule(request, this.session.permissions);
    const options = sessionRule === undefined ? ONCE_OR_DENY : ALL_OPTIONS;
    return {
      id: randomUUID(),
      sessionId: this.session.sessionId,
      turn,
      callId: request.callId,
      name: request.name,
      arguments: request.arguments,
      ...(request.originalArguments === undefined
        ? {}
        : { originalArguments: request.originalArguments }),
      ...(request.rewrittenBy === undefined ? {} : { rewrittenBy: request.rewrittenBy }),
      ...(request.rewriteReason === undefined ? {} : { rewriteReason: request.rewriteReason }),
      tool: request.tool,
      presentation: this.session.present(request.name, request.arguments),
      askedBy: request.askedBy,
      reason: request.reason,
      options,
      ...(sessionRule === undefined ? {} : { sessionRule }),
      ...(editsProtected(request, this.session.permissions)
        ? { protectedFile: true as const }
        : {}),
    };
  }
}

function optionOf(decision: AskDecision): AskOption | undefined {
  if (decision.outcome === "deny") return "deny";
  if (decision.outcome !== "allow") return undefined;
  if (decision.scope === undefined || decision.scope === "once") return "allow_once";
  return decision.scope === "session" ? "allow_session" : undefined;
}

function answerOf(decision: AskDecision, ask: AgentAsk): AskAnswer {
  const by = decision.by ?? "user";
  if (decision.outcome === "allow") {
    return { outcome: "allow", scope: decision.scope ?? "once", by, reason: ask.reason };
  }
  if (decision.reason !== undefined) return deny(by, decision.reason);
  return deny(by, by === "user" ? "the user denied this call" : ask.reason);
}

function deny(by: "user" | "default", reason: string): AskAnswer {
  return { outcome: "deny", scope: "once", by, reason };
}

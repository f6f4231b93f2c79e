// The questions the model asks the user (`ask_user`, ask-user-tool.ts), through the surface
// API's asks: each is recorded (`question/asked`), put on the bus as an `agent/ask` carrying
// `question`, and waits for `agent.answer(id, { outcome: "answer", answer })` or a decline;
// with no surface listening it is answered at once that no user is available. The answer is
// recorded (`question/answered`). Built by compose-session.ts; agent.ts routes answers here.
import { randomUUID } from "node:crypto";
import type { JsonValue } from "../session/events.ts";
import type { SessionWriter } from "../session/writer.ts";
import type { CallPresentation } from "../tools/presentation.ts";
import { AskWaitlist } from "./ask-waitlist.ts";
import type { AgentBus } from "./bus-events.ts";
import type { AgentAsk, AnswerResult, AskDecision } from "./pending-asks.ts";

/** What the model is told when nobody can answer. */
export const NO_USER =
  "No user is available to answer (no interactive surface). Decide yourself and say what you assumed.";

/** A question as the tool hands it over. */
interface Question {
  callId: string;
  turn: number;
  question: string;
  options: string[];
  freeText: boolean;
  arguments: JsonValue;
  presentation: CallPresentation;
  signal: AbortSignal;
}

/** How a question ended: the answer, or why there is none. */
type QuestionOutcome =
  | { answer: string }
  | { answer: null; reason: string; by: "user" | "default" };

export class QuestionDesk {
  private readonly waiting: AskWaitlist<QuestionOutcome>;

  constructor(
    bus: AgentBus,
    private readonly writer: SessionWriter,
    private readonly sessionId: string,
  ) {
    this.waiting = new AskWaitlist(bus, none, NO_USER);
  }

  /** Asks; resolves with the answer (recorded), or why none came. */
  async ask(question: Question): Promise<QuestionOutcome> {
    const { callId } = question;
    this.writer.append({
      type: "question/asked",
      call_id: callId,
      question: question.question,
      options: question.options,
      free_text: question.freeText,
    });
    const outcome = await this.waiting.wait(this.describe(question), question.signal);
    this.writer.append({
      type: "question/answered",
      call_id: callId,
      answer: outcome.answer,
      by: outcome.answer === null ? outcome.by : "user",
      ...(outcome.answer === null ? { reason: outcome.reason } : {}),
    });
    return outcome;
  }

  /** True when `id` is a question waiting here. */
  owns(id: string): boolean {
    return this.waiting.get(id) !== undefined;
  }

  /** Answers a question: an `answer` (an option, or any text when free text is allowed) or a decline. */
  answer(id: string, decision: AskDecision): AnswerResult {
    const waiting = this.waiting.get(id);
    if (!waiting) return { ok: false, error: "unknown", message: `no question ${id}` };
    const question = waiting.question;
    if (decision.outcome === "deny") {
      const by = decision.by ?? "user";
      const reason = decision.reason ?? "the user declined to answer";
      this.waiting.settle(id, { answer: null, reason, by });
      return { ok: true };
    }
    if (decision.outcome !== "answer" || typeof decision.answer !== "string") {
      return { ok: false, error: "invalid", message: `question ${id}: answer it or deny it` };
    }
    const answer = decision.answer.trim();
    const known = question?.options.includes(answer) ?? false;
    if (answer === "" || (!known && !question?.freeText)) {
      return { ok: false, error: "not-offered", message: `question ${id}: not one of its options` };
    }
    this.waiting.settle(id, { answer });
    return { ok: true };
  }

  pending(): AgentAsk[] {
    return this.waiting.pending();
  }

  private describe(question: Question): AgentAsk {
    return {
      id: randomUUID(),
      sessionId: this.sessionId,
      turn: question.turn,
      callId: question.callId,
      name: "ask_user",
      arguments: question.arguments,
      tool: { readOnly: true, kind: "think" },
      presentation: question.presentation,
      askedBy: { by: "model" },
      reason: question.question,
      options: ["answer", "deny"],
      question: {
        text: question.question,
        options: question.options,
        freeText: question.freeText,
      },
    };
  }
}

function none(reason: string): QuestionOutcome {
  return { answer: null, reason, by: "default" };
}

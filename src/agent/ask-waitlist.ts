// The waiting asks of one kind (a session's questions, its plans): an ask goes on the bus as
// `agent/ask` and waits until it is settled here, or its turn's signal aborts. With no surface
// listening it is settled at once with `none`'s outcome. Used by questions.ts and plans.ts.
import type { AgentBus } from "./bus-events.ts";
import type { AgentAsk } from "./pending-asks.ts";

interface Waiting<Outcome> {
  ask: AgentAsk;
  settle(outcome: Outcome): void;
}

export class AskWaitlist<Outcome> {
  private readonly waiting = new Map<string, Waiting<Outcome>>();

  constructor(
    private readonly bus: AgentBus,
    /** The outcome of an ask nobody answers: why (cancelled, or `nobody`). */
    private readonly none: (reason: string) => Outcome,
    /** Why, when no surface listens. */
    private readonly nobody: string,
  ) {}

  /** Puts `ask` on the bus; resolves with how it was settled. */
  wait(ask: AgentAsk, signal: AbortSignal): Promise<Outcome> {
    if (signal.aborted) return Promise.resolve(this.none("the turn was cancelled"));
    if (this.bus.listenerCount("agent/ask") === 0) return Promise.resolve(this.none(this.nobody));
    return new Promise<Outcome>((resolve) => {
      const onAbort = () => this.settle(ask.id, this.none("the turn was cancelled"));
      signal.addEventListener("abort", onAbort, { once: true });
      this.waiting.set(ask.id, {
        ask,
        settle: (outcome) => {
          signal.removeEventListener("abort", onAbort);
          resolve(outcome);
        },
      });
      this.bus.emit("agent/ask", ask);
    });
  }

  /** The waiting ask `id`, if any. */
  get(id: string): AgentAsk | undefined {
    return this.waiting.get(id)?.ask;
  }

  settle(id: string, outcome: Outcome): void {
    const waiting = this.waiting.get(id);
    if (!waiting) return;
    this.waiting.delete(id);
    waiting.settle(outcome);
  }

  pending(): AgentAsk[] {
    return [...this.waiting.values()].map((waiting) => waiting.ask);
  }
}

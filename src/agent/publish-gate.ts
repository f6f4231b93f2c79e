// Holds back the events appended while a session opens until the surface has been told the
// session exists (`agent/session-start`), then folds each event into the loop's state and puts
// it on the bus, once each, in order. Used by agent.ts.
import type { SessionEvent } from "../session/events.ts";

/**
 * Holds back events appended while the session opens (its `session/start`, a
 * `session/recovered`) until `agent/session-start` has been sent, then delivers them in order.
 * Every event is folded into the loop's state once and put on the bus once.
 */
export class PublishGate {
  private held: SessionEvent[] | null = [];
  /** The resumed log's events (set on resume), including any appended while reopening. */
  history: SessionEvent[] = [];

  constructor(
    private readonly fold: (event: SessionEvent) => void,
    private readonly emit: (event: SessionEvent) => void,
  ) {}

  readonly publish = (event: SessionEvent): void => {
    if (this.held) {
      this.held.push(event);
      return;
    }
    this.fold(event);
    this.emit(event);
  };

  /** Folds the resumed history, then releases the held events. */
  open(): void {
    for (const event of this.history) this.fold(event);
    const held = this.held ?? [];
    this.held = null;
    const folded = new Set(this.history.map((event) => event.seq));
    for (const event of held) {
      if (!folded.has(event.seq)) this.fold(event);
      this.emit(event);
    }
  }
}

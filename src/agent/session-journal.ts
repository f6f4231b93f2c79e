// Every durable event of one open session, in order: the events of a resumed log, then each
// one the writer appends. Folds each into the loop's state once, and puts each appended one on
// the bus (`session/event`) once, holding back those appended while the session opens until
// `agent/session-start` was sent. `history()` is what was published so far. Used by
// compose-session.ts.
import type { SessionEvent } from "../session/events.ts";

export class SessionJournal {
  private events: SessionEvent[] = [];
  /** Events before this index were read from the resumed log or put on the bus. */
  private published = 0;
  private live = false;

  constructor(
    private readonly fold: (event: SessionEvent) => void,
    private readonly emit: (event: SessionEvent) => void,
  ) {}

  /** The writer's publish: called once per appended event, in seq order. */
  readonly publish = (event: SessionEvent): void => {
    this.events.push(event);
    if (!this.live) return;
    this.fold(event);
    this.published = this.events.length;
    this.emit(event);
  };

  /**
   * Goes live: folds `prior` (the resumed log's events, read before reopening) and the events
   * appended while opening, then publishes the latter in order.
   */
  open(prior: readonly SessionEvent[] = []): void {
    const held = this.events;
    this.events = [...prior, ...held];
    for (const event of prior) this.fold(event);
    this.published = prior.length;
    this.live = true;
    for (const event of held) {
      this.fold(event);
      this.published++;
      this.emit(event);
    }
  }

  /**
   * Every durable event so far: those of the resumed log and every one already on the bus,
   * including lines the writer still holds in memory. An event is in here exactly when it was
   * emitted before this call, so a listener added together with this call (in the same
   * synchronous step) sees each later event once, and none twice.
   */
  history(): SessionEvent[] {
    return this.events.slice(0, this.published);
  }
}

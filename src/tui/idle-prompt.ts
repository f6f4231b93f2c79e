// Claude Code's `idle_prompt` Notification: once a turn has ended, a prompt left waiting for
// input longer than `[display] idle_prompt_ms` runs the Notification hooks once (the agent's
// `notify` command, through `fire`); the next turn, or leaving, disarms it. The timer lives in
// the surface, not in the loop, and never holds the process open. Armed by app.ts.
export class IdlePrompt {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    /** 0: never. */
    private readonly delayMs: number,
    private readonly fire: () => void,
  ) {}

  /** A turn ended: the wait for input starts (again). */
  arm(): void {
    this.disarm();
    if (this.delayMs <= 0) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.fire();
    }, this.delayMs);
    this.timer.unref();
  }

  disarm(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}

// One ACP session: a codewhale agent seen through the Agent Client Protocol. It renders every
// `session/event` as `session/update`s (event-updates.ts), in the order the log has them; turns
// `agent/ask` into a `tool_call` and then a `session/request_permission`, answered through
// `agent.answer`; runs prompts with `agent.submit` and answers with the turn's stop reason.
// Created by acp-sessions.ts for session/new, load and resume.
import type {
  AgentContext,
  ContentBlock,
  PromptResponse,
  SessionUpdate,
} from "@agentclientprotocol/sdk";
import { RequestError } from "@agentclientprotocol/sdk";
import type { Agent } from "../agent/agent.ts";
import type { AgentAsk } from "../agent/pending-asks.ts";
import type { SessionEvent } from "../session/events.ts";
import { isPresentedTool } from "../tools/presentation.ts";
import { type ContextWindow, EventUpdates } from "./event-updates.ts";
import { decisionOf, permissionOptions } from "./permission-options.ts";
import { promptText } from "./prompt-text.ts";
import { modeState, permissionModeOf } from "./session-modes.ts";
import { stopReasonOf } from "./stop-reason.ts";

export class AcpSession {
  private readonly updates: EventUpdates;
  /** Settles once every update sent so far has been written. */
  private written: Promise<void> = Promise.resolve();
  /** Permission requests still open, by call id: aborted when the call is decided otherwise. */
  private readonly asking = new Map<string, AbortController>();
  /** Rules the user rejected for the session: their asks are denied without asking again. */
  private readonly rejected = new Set<string>();
  /** The provider's stop reason of each turn's last answer. */
  private readonly lastStop = new Map<number, string | null>();
  private readonly prompts = new Set<Promise<unknown>>();
  private readonly detach: Array<() => void> = [];

  constructor(
    readonly agent: Agent,
    private readonly client: AgentContext,
    contextWindow: ContextWindow,
  ) {
    this.updates = new EventUpdates(contextWindow);
    this.updates.tools.useSessionPresenters((name) => {
      const tool = agent.tools.get(name);
      return tool && isPresentedTool(tool) ? tool : undefined;
    });
  }

  get id(): string {
    return this.agent.sessionId;
  }

  /**
   * Subscribes and reads the history in one synchronous step, so every event is seen once;
   * `replay` sends the history as updates (session/load), else it only primes the projection.
   */
  attach(replay: boolean): void {
    this.detach.push(this.agent.bus.on("session/event", (event) => this.observe(event, true)));
    this.detach.push(this.agent.bus.on("agent/ask", (ask) => this.onAsk(ask)));
    for (const event of this.agent.history()) this.observe(event, replay, replay);
  }

  /** Runs one prompt as a turn (queued behind a running one) and answers its stop reason. */
  async prompt(blocks: readonly ContentBlock[]): Promise<PromptResponse> {
    const prompt = promptText(blocks);
    if ("refused" in prompt) {
      throw RequestError.invalidParams({ reason: `${prompt.refused} cannot be sent to codewhale` });
    }
    const running = this.agent.submit(prompt.text);
    this.prompts.add(running);
    try {
      const outcome = await running;
      await this.written;
      if (outcome.reason === "withdrawn") return { stopReason: "cancelled" };
      const stopReason = stopReasonOf(outcome, this.lastStop.get(outcome.turn));
      if (stopReason) return { stopReason };
      throw new RequestError(-32603, outcome.error ?? "the turn failed", {
        reason: outcome.reason,
      });
    } finally {
      this.prompts.delete(running);
    }
  }

  /** The permission modes, the current one first chosen by config and flags. */
  get modes() {
    return modeState(this.agent.permissionMode);
  }

  /** Switches the permission mode and tells the client (`current_mode_update`). */
  setMode(modeId: string): void {
    const mode = permissionModeOf(modeId);
    if (!mode) throw RequestError.invalidParams({ modeId }, `unknown mode "${modeId}"`);
    this.agent.setPermissionMode(mode);
    this.send({ sessionUpdate: "current_mode_update", currentModeId: mode });
  }

  /** Ends the running turn (its tools and asks); its prompt answers `cancelled`. */
  cancel(): void {
    this.agent.cancel();
  }

  /** Cancels what runs, waits for the turns to end (their logs complete), closes the agent. */
  async close(): Promise<void> {
    this.agent.withdrawQueued();
    this.agent.cancel();
    await Promise.allSettled([...this.prompts]);
    for (const stop of this.detach.splice(0)) stop();
    for (const request of this.asking.values()) request.abort();
    await this.agent.close();
  }

  private observe(event: SessionEvent, send: boolean, replaying = false): void {
    if (event.type === "assistant/message") this.lastStop.set(event.turn, event.stop_reason);
    if (event.type === "tool/call") {
      this.asking.get(event.call_id)?.abort();
      this.asking.delete(event.call_id);
    }
    const updates = this.updates.of(event, replaying);
    if (send) for (const update of updates) this.send(update);
  }

  private send(update: SessionUpdate): void {
    this.written = this.client
      .notify("session/update", { sessionId: this.id, update })
      .catch(() => undefined);
  }

  /** The call is shown first (`tool_call`), then the editor is asked; its answer decides. */
  private onAsk(ask: AgentAsk): void {
    if (ask.sessionRule !== undefined && this.rejected.has(ask.sessionRule)) {
      const reason = `the user rejected ${ask.sessionRule} for this session`;
      this.agent.answer(ask.id, { outcome: "deny", reason });
      return;
    }
    const shown = this.updates.announce(ask.callId, ask.name, ask.arguments, ask.presentation);
    this.send(shown);
    const { sessionUpdate: _, ...toolCall } = shown;
    const request = new AbortController();
    this.asking.set(ask.callId, request);
    this.client
      .request(
        "session/request_permission",
        { sessionId: this.id, toolCall, options: permissionOptions(ask) },
        { cancellationSignal: request.signal },
      )
      .then(
        (response) => decisionOf(ask, response.outcome),
        () => ({ decision: { outcome: "deny", reason: "the editor did not answer" } as const }),
      )
      .then(({ decision, rejectRule }: ReturnType<typeof decisionOf>) => {
        this.asking.delete(ask.callId);
        if (rejectRule !== undefined) this.rejected.add(rejectRule);
        this.agent.answer(ask.id, decision);
      });
  }
}

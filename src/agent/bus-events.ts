// The application's bus event map: every event name the agent puts on the in-process bus.
// `session/event` is the only live feed of durable facts; the rest are transient lifecycle
// signals that are never persisted and never repeat something the session log records.
// Surfaces (cli, present, acp, tui) subscribe here; the agent is the only emitter.
import type { Bus } from "../bus/bus.ts";
import type { JsonValue, SessionEvent, ToolDecision } from "../session/events.ts";

/** What the agent is doing right now. */
export type AgentStatus = "idle" | "running" | "cancelling";

export type BusEvents = {
  /**
   * A durable event, delivered after the session store appended it (and synced it, for the
   * types that sync). Surfaces render from this feed, never from the loop's internals.
   */
  "session/event": (event: SessionEvent) => void;
  /** An agent was constructed; no session is open yet. */
  "agent/created": () => void;
  /** The agent shut down: its session is closed and it emits nothing further. */
  "agent/disposed": () => void;
  /** The agent's status changed; sent only on a change, starting from `idle`. */
  "agent/status": (change: { status: AgentStatus }) => void;
  /**
   * A failure to show the user as one line, for problems the session log cannot carry (the
   * log could not be opened, a plugin failed). Errors inside a turn arrive as `session/event`.
   */
  "agent/error": (error: { message: string }) => void;
  /**
   * A prompt submitted while a turn runs is waiting for that turn to end (a surface's queue,
   * not the log). When its turn starts it appears as a `user/message` session event. Steering
   * is never announced here: it is appended as `steering/message` at once.
   */
  "agent/queued": (message: { text: string }) => void;
  /** The agent opened a session log (new, resumed or forked), before its first `session/event`. */
  "agent/session-start": (session: { sessionId: string; logPath: string }) => void;
  /**
   * Asked (serially) before each valid tool call is recorded; the first verdict wins. The
   * seam the hooks and permission rules plug into; with no listener every call is allowed.
   */
  "tools/pre-execute": (call: PreExecuteCall) => PreExecuteVerdict | undefined;
};

/** A validated tool call about to be recorded, as the pre-execute listeners see it. */
export interface PreExecuteCall {
  readonly callId: string;
  readonly name: string;
  readonly arguments: JsonValue;
  readonly sessionId: string;
  readonly cwd: string;
}

/** A listener's answer: deny with a reason, or `undefined` for no opinion (the call runs). */
export interface PreExecuteVerdict {
  outcome: "deny";
  by?: ToolDecision["by"];
  reason?: string;
}

/** The bus as the agent and the surfaces see it. */
export type AgentBus = Bus<BusEvents>;

// The application's bus event map: every event name the agent puts on the in-process bus.
// `session/event` is the only live feed of durable facts; the rest are transient lifecycle
// signals that are never persisted and never repeat something the session log records.
// Surfaces (cli, present, acp, tui) subscribe here; the agent is the only emitter.
import type { Bus } from "../bus/bus.ts";
import type { PermissionMode } from "../config/index.ts";
import type { HookListener } from "../hooks/index.ts";
import type { SessionEvent } from "../session/events.ts";
import type { ToolProgress } from "../tools/types.ts";
import type { AgentAsk } from "./pending-asks.ts";

/** What the agent is doing right now. */
export type AgentStatus = "idle" | "running" | "cancelling";

export type BusEvents = {
  /**
   * A durable event, delivered after the session store appended it (and synced it, for the
   * types that sync). Surfaces render from this feed, never from the loop's internals.
   */
  "session/event": (event: SessionEvent) => void;
  /** The agent shut down: its session is closed and it emits nothing further. */
  "agent/disposed": () => void;
  /** The agent's status changed; sent only on a change, starting from `idle`. */
  "agent/status": (change: { status: AgentStatus }) => void;
  /**
   * A prompt given to `submit` while a turn runs (or others wait) is queued behind it, in the
   * agent's FIFO queue, not the log. When its turn starts it appears as a `user/message`
   * session event. Steering is never announced here: it is appended as `steering/message`.
   */
  "agent/queued": (message: { text: string }) => void;
  /**
   * A tool call waits for approval: answer it with `agent.answer(ask.id, decision)`, from any
   * surface; the first answer wins. The wait ends with the turn (cancel, a signal, dispose),
   * and with no listener at all the call is denied at once. What is decided is recorded on
   * `tool/call.decision`; the ask itself is never persisted.
   */
  "agent/ask": (ask: AgentAsk) => void;
  /**
   * The permission mode changed (`set_mode` from any surface, or an approved plan, whose
   * `plan/decided` records it): the calls decided from now on are decided in `mode`.
   */
  "agent/mode": (change: { mode: PermissionMode }) => void;
  /** The agent opened a session log (new, resumed or forked), before its first `session/event`. */
  "agent/session-start": (session: { sessionId: string; logPath: string }) => void;
  /**
   * One line for the user that the log does not carry: the project settings that were ignored
   * (untrusted, changed since trusted, or a prompt file outside the project) and instruction
   * files skipped for linking outside the repository (`source: "policy"`, shown as they are),
   * a hook's error or `systemMessage` (`"hook"`), a failing pre-execute
   * listener (`"pre-execute"`), a failing code-graph probe (`"tools"`), an output-policy stage
   * that failed open (`"output"`; the log carries it as `tool/result.policy_errors`), and
   * status a person may want but a script does not, such as cgc not being installed
   * (`"status"`; headless surfaces show it only on a terminal).
   */
  "agent/notice": (notice: { message: string; source: NoticeSource }) => void;
  /**
   * A running tool call reported progress (ToolContext.progress): a command's output tail, an
   * MCP progress notification. Transient and display-only; its text is already through the
   * output policy. The call's `tool/result` is what the log keeps.
   */
  "tool/progress": (progress: ToolProgress & { callId: string; tool: string }) => void;
  /**
   * A tool call's input began to stream (the provider named the call and its tool): its
   * arguments follow as the durable `assistant/chunk`s of kind `tool_input` with the same
   * turn, step and block, and the call itself as `tool/call` with this `callId` once the
   * message is complete. Display-only: a surface shows a pending call from it and drops it at
   * that `tool/call`, or when the step fails (`step/failed`) or the turn ends without one.
   */
  "tool/input-start": (start: ToolInputStarted) => void;
  /**
   * A durable event of a subagent's session (docs/subagents.md), after the child's log has it:
   * the parent's `task` call `callId` runs the child session `sessionId`. Live only: the
   * child's own log keeps it, and the parent's `tool/result.child` names that log.
   */
  "subagent/event": (child: { callId: string; sessionId: string; event: SessionEvent }) => void;
  /**
   * A running call of a subagent's session reported an output tail (its `tool/progress`): the
   * parent's `task` call `callId`, the child session, the child's own call. Display-only.
   */
  "subagent/progress": (child: ChildProgress) => void;
  /**
   * Collected before each valid tool call is decided: each listener may answer a HookListener
   * (`{ name: "plugin:<name>", decide }`). The answers join the decision first, in
   * registration order, before the PreToolUse hooks; they can allow, deny, ask and rewrite
   * (see tool-call-decision.ts). With no listener, only the permission rules and hooks decide.
   * A listener that throws here is reported and skipped; one whose `decide` throws or times
   * out denies the call.
   */
  "tools/pre-execute": (session: PreExecuteSession) => HookListener | undefined;
};

/** A subagent's call's output tail, as `subagent/progress` carries it. */
export interface ChildProgress {
  callId: string;
  sessionId: string;
  childCallId: string;
  /** Already through the output policy, as the child's `tool/progress` tail. */
  tail: string;
}

/** The start of a streaming tool input, as `tool/input-start` carries it. */
export interface ToolInputStarted {
  turn: number;
  step: number;
  /** The content block whose `tool_input` chunks carry the arguments. */
  block: number;
  /** The call's id, as its `tool/call.call_id` will be. */
  callId: string;
  tool: string;
}

export type NoticeSource = "policy" | "hook" | "pre-execute" | "tools" | "output" | "status";

/** What a plugin knows when it is asked for its pre-execute listener. */
interface PreExecuteSession {
  readonly sessionId: string;
  readonly cwd: string;
}

/** The bus as the agent and the surfaces see it. */
export type AgentBus = Bus<BusEvents>;

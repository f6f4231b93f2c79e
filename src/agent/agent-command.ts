// Everything a surface can ask of an agent, as data: one `AgentCommand` union that
// `agent.dispatch(command)` carries out (agent.ts). exec's stream-json input, the terminal and
// ACP map their input to it, so a new surface is a mapping, and a command is logged or sent
// as it is. Events go out on the bus; commands come in here.
import type { RewindRequest } from "../checkpoints/index.ts";
import type { PermissionMode } from "../config/index.ts";
import type { Effort } from "../session/events.ts";
import type { AttachedImage } from "../session/images.ts";
import type { CompactOutcome, SubmitOutcome } from "./agent.ts";
import type { AgentAsk, AnswerResult, AskDecision } from "./pending-asks.ts";
import type { RewindOutcome } from "./rewind-command.ts";
import type { TurnScope } from "./turn-scope.ts";

export type AgentCommand =
  /** Starts a turn, or queues the prompt (FIFO) while one runs. */
  | {
      type: "prompt";
      text: string;
      images?: AttachedImage[] | undefined;
      /** A custom command's `allowed-tools` and `model`, for this prompt's turn only. */
      scope?: TurnScope | undefined;
    }
  /** Joins the running turn as `steering/message` (false when none runs). */
  | { type: "steer"; text: string }
  /** Ends the running turn, its tools and its pending asks; queued prompts stay queued. */
  | { type: "cancel" }
  /** Takes the queued prompts back (their prompt commands resolve `withdrawn`). */
  | { type: "withdraw" }
  /** Answers an `agent/ask`; the first answer wins. */
  | { type: "answer"; id: string; decision: AskDecision }
  /** Compacts the history now (queued behind a running turn like a prompt). */
  | { type: "compact"; focus?: string | undefined }
  /** The permission mode of the calls decided from now on. */
  | { type: "set_mode"; mode: PermissionMode }
  /**
   * The reasoning effort of the requests from the next one on, recorded as `session/effort`
   * (unchanged: nothing is written); a provider without one says so in one `agent/notice`.
   */
  | { type: "set_effort"; effort: Effort }
  /** Rewinds code, conversation or both (docs/rewind.md); queued behind a running turn. */
  | ({ type: "rewind" } & RewindRequest)
  /**
   * A surface showed a person an ask (`agent/ask`): runs the Notification hooks with the ask's
   * wording (docs/hooks.md). Resolves once they ran; their notices go out as `agent/notice`.
   */
  | { type: "notify"; ask: AgentAsk }
  /**
   * The surface's prompt has waited for input (`[display] idle_prompt_ms` after a turn): runs
   * the Notification hooks with `idle_prompt`. Resolves once they ran.
   */
  | { type: "notify"; idle: true };

/** What `dispatch` returns for each command type. */
export interface CommandResults {
  prompt: Promise<SubmitOutcome>;
  steer: boolean;
  cancel: undefined;
  withdraw: string[];
  answer: AnswerResult;
  compact: Promise<CompactOutcome>;
  set_mode: undefined;
  set_effort: undefined;
  rewind: Promise<RewindOutcome | WithdrawnRewind>;
  notify: Promise<void>;
}

/** A rewind taken back while it waited in the queue. */
export interface WithdrawnRewind {
  reason: "withdrawn";
  text: string;
}

export type CommandResult<C extends AgentCommand> = CommandResults[C["type"]];

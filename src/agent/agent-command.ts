// Everything a surface can ask of an agent, as data: one `AgentCommand` union that
// `agent.dispatch(command)` carries out (agent.ts). exec's stream-json input, the terminal and
// ACP map their input to it, so a new surface is a mapping, and a command is logged or sent
// as it is. Events go out on the bus; commands come in here.
import type { PermissionMode } from "../config/index.ts";
import type { CompactOutcome, SubmitOutcome } from "./agent.ts";
import type { AnswerResult, AskDecision } from "./pending-asks.ts";

export type AgentCommand =
  /** Starts a turn, or queues the prompt (FIFO) while one runs. */
  | { type: "prompt"; text: string }
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
  | { type: "set_mode"; mode: PermissionMode };

/** What `dispatch` returns for each command type. */
export interface CommandResults {
  prompt: Promise<SubmitOutcome>;
  steer: boolean;
  cancel: undefined;
  withdraw: string[];
  answer: AnswerResult;
  compact: Promise<CompactOutcome>;
  set_mode: undefined;
}

export type CommandResult<C extends AgentCommand> = CommandResults[C["type"]];

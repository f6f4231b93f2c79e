// The engine's one entry for a surface: open an `Agent`, subscribe to its bus (`BusEvents`:
// the durable `session/event` union and the transient `agent/*` events), dispatch commands
// (`AgentCommand`) and answer asks. src/agent/README.md shows the whole surface in a dozen lines.

export type { AgentOptions, CompactOutcome, SubmitOutcome, UserShellRun } from "./agent.ts";
export { Agent, USER_ATTACH_SOURCE, USER_SHELL_SOURCE } from "./agent.ts";
export type { AgentCommand, CommandResult } from "./agent-command.ts";
export type {
  AgentBus,
  AgentStatus,
  BusEvents,
  NoticeSource,
  ToolInputStarted,
} from "./bus-events.ts";
export type { AgentAsk, AnswerResult, AskDecision, AskOption } from "./pending-asks.ts";
export type { TurnOutcome, TurnReason } from "./turn.ts";

// The engine's one entry for a surface: open an `Agent`, subscribe to its bus (`BusEvents`:
// the durable `session/event` union and the transient `agent/*` events), dispatch commands
// (`AgentCommand`) and answer asks; also the model-id helpers and the prompt-size check the
// CLI and ACP use. Surfaces import nothing else of src/agent/ (test/architecture.test.ts).

export type { AgentOptions, CompactOutcome, SubmitOutcome, UserShellRun } from "./agent.ts";
export { Agent, USER_ATTACH_SOURCE, USER_SHELL_SOURCE } from "./agent.ts";
export type { AgentCommand, CommandResult, WithdrawnRewind } from "./agent-command.ts";
export type {
  AgentBus,
  AgentStatus,
  BusEvents,
  ChildProgress,
  NoticeSource,
  ToolInputStarted,
} from "./bus-events.ts";
export { EFFORT_BUDGETS } from "./effort.ts";
export type { AgentAsk, AnswerResult, AskDecision, AskOption } from "./pending-asks.ts";
export { NO_APPROVER } from "./plans.ts";
export { oversizedPrompt } from "./prompt-size.ts";
export { resolveModel, splitModelId } from "./provider-resolve.ts";
export { NO_USER } from "./questions.ts";
export type { RewindOutcome } from "./rewind-command.ts";
export type { Receipts } from "./session-open.ts";
export type { TurnOutcome, TurnReason } from "./turn.ts";
export type { TurnScope } from "./turn-scope.ts";

// The hooks of one session, by event: PreToolUse as pre-execute listeners, and the observer
// events (SessionStart, UserPromptSubmit, PostToolUse, Stop, PreCompact, SessionEnd,
// Notification) as calls that return
// data for the loop: notes for the model, one-line notices for the user, and whether to block
// or stop. No hook can change what the model said or what the log holds. Every text in the
// notes has been through the output policy (text-policy.ts).
import type { Config, HookConfig, HookEvent } from "../config/index.ts";
import type { JsonValue } from "../session/events.ts";
import type { HookOutcome } from "./output.ts";
import { oneLine } from "./output.ts";
import type { HookListener } from "./pre-tool-use.ts";
import { createPreToolUseListeners } from "./pre-tool-use.ts";
import { claudeToolName, matcherSelects, toClaudeInput } from "./protocol.ts";
import type { HookRuntime } from "./run-event.ts";
import { hookName, runEventHooks } from "./run-event.ts";

export interface HookNotes {
  /** Notes for the model: `additionalContext`, and for PostToolUse block reasons (exit 2). */
  context: string[];
  /** One-line messages for the user: hook errors, `systemMessage`, exit-2 stderr of observers. */
  notices: string[];
  /** A hook answered `continue: false`: end the turn; `reason` is for the user. */
  stop?: { reason: string; by: string };
  /**
   * UserPromptSubmit: the prompt is rejected (not sent), `reason` is for the user.
   * Stop: the turn must go on, `reason` is for the model.
   * PreCompact: an automatic compaction does not happen, `reason` is for the user.
   */
  block?: { reason: string; by: string };
}

export interface ToolCallFacts {
  callId: string;
  name: string;
  arguments: JsonValue;
}

export interface SessionHooks {
  preToolUseListeners(): HookListener[];
  sessionStart(source: "startup" | "resume" | "clear" | "compact"): Promise<HookNotes>;
  userPromptSubmit(prompt: string): Promise<HookNotes>;
  postToolUse(
    call: ToolCallFacts,
    result: { content: string; isError: boolean },
  ): Promise<HookNotes>;
  /** `stopHookActive`: this turn already went on once because of a Stop hook. */
  stop(stopHookActive: boolean): Promise<HookNotes>;
  /**
   * Before a compaction (matcher `auto` | `manual`); `context` holds instructions for the
   * summary (`additionalContext`), `block` refuses it (exit 2 or `decision: "block"`).
   */
  preCompact(trigger: "auto" | "manual", customInstructions: string): Promise<HookNotes>;
  sessionEnd(reason: "exit" | "clear" | "logout" | "other"): Promise<HookNotes>;
  /** A person is waiting to be asked something (matcher: the `notification_type`). */
  notification(type: NotificationType, message: string): Promise<HookNotes>;
}

/** Claude Code's `notification_type`s that codewhale sends. */
export type NotificationType = "permission_prompt" | "elicitation_dialog" | "idle_prompt";

type Hooks = Config["hooks"];

export function createSessionHooks(hooks: Hooks, runtime: HookRuntime): SessionHooks {
  const run = (event: HookEvent, subject: string | undefined, fields: Record<string, JsonValue>) =>
    runObservers(event, selected(hooks[event], subject), runtime, fields);
  return {
    preToolUseListeners: () => createPreToolUseListeners(hooks.PreToolUse, runtime),
    sessionStart: (source) => run("SessionStart", source, { source }),
    userPromptSubmit: (prompt) => run("UserPromptSubmit", undefined, { prompt }),
    postToolUse: (call, result) =>
      run("PostToolUse", call.name, {
        tool_name: claudeToolName(call.name),
        tool_input: toClaudeInput(call.name, call.arguments, runtime.session.cwd),
        tool_use_id: call.callId,
        tool_response: toolResponse(call.name, result),
      }),
    stop: (stopHookActive) => run("Stop", undefined, { stop_hook_active: stopHookActive }),
    preCompact: (trigger, customInstructions) =>
      run("PreCompact", trigger, { trigger, custom_instructions: customInstructions }),
    sessionEnd: (reason) => run("SessionEnd", reason, { reason }),
    notification: (type, message) =>
      run("Notification", type, { message, notification_type: type }),
  };
}

/** The hooks whose matcher selects `subject` (a tool name, a start source or end reason). */
function selected(hooks: readonly HookConfig[], subject: string | undefined): HookConfig[] {
  if (subject === undefined) return [...hooks];
  return hooks.filter((hook) => matcherSelects(hook.matcher, subject));
}

/** A generic `tool_response`: the text the model saw, plus Bash's `stdout` for old scripts. */
function toolResponse(tool: string, result: { content: string; isError: boolean }): JsonValue {
  const response: Record<string, JsonValue> = {
    content: result.content,
    is_error: result.isError,
    success: !result.isError,
  };
  if (tool === "bash") response.stdout = result.content;
  return response;
}

async function runObservers(
  event: HookEvent,
  hooks: readonly HookConfig[],
  runtime: HookRuntime,
  fields: Record<string, JsonValue>,
): Promise<HookNotes> {
  const notes: HookNotes = { context: [], notices: [] };
  for (const { hook, outcome } of await runEventHooks(event, hooks, runtime, fields)) {
    addOutcome(notes, event, hookName(hook), outcome);
  }
  return notes;
}

function addOutcome(notes: HookNotes, event: HookEvent, by: string, outcome: HookOutcome): void {
  if (outcome.error !== undefined) notes.notices.push(outcome.error);
  if (outcome.userMessage) notes.notices.push(outcome.userMessage);
  if (outcome.additionalContext) notes.context.push(outcome.additionalContext);
  if (outcome.stop && !notes.stop) notes.stop = { reason: outcome.stop.reason, by };
  if (!outcome.block) return;
  const { reason } = outcome.block;
  if (event === "PostToolUse") notes.context.push(reason);
  else if (event === "UserPromptSubmit" || event === "Stop" || event === "PreCompact") {
    notes.block ??= { reason, by };
  } else notes.notices.push(`${by}: ${oneLine(reason)}`);
}

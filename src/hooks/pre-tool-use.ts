// PreToolUse hooks as pre-execute listeners: one listener per configured hook, named
// `hook:<command>`, that runs the hook when its matcher selects the tool and turns the
// Claude Code answer into a verdict (allow, deny, ask, rewrite). Errors and timeouts follow
// the hook's `on_error` (default "allow", as in Claude Code), with a one-line notice.
import type { HookConfig } from "../config/index.ts";
import type { JsonValue } from "../session/events.ts";
import type { HookOutcome } from "./output.ts";
import { claudeToolName, fromClaudeInput, matcherSelects, toClaudeInput } from "./protocol.ts";
import type { HookRuntime } from "./run-event.ts";
import { hookName, runOneHook } from "./run-event.ts";
import { DEFAULT_HOOK_TIMEOUT_MS } from "./run-hook.ts";

/**
 * The call a pre-execute listener sees (hooks and plugins alike); its arguments are
 * deep-frozen by the composition (src/agent/tool-call-decision.ts).
 */
export interface HookToolCall {
  readonly callId: string;
  readonly name: string;
  readonly arguments: JsonValue;
}

/**
 * A pre-execute listener's answer. No `outcome` means no objection; `rewrite` replaces the
 * arguments (the only way to change a call; for hooks, Claude Code's `updatedInput`).
 */
export interface HookVerdict {
  outcome?: "allow" | "deny" | "ask";
  reason?: string;
  rewrite?: { arguments: JsonValue; reason: string };
  /** One line for the user (a hook error, a `systemMessage`). */
  notice?: string;
  /** A note for the model next to the tool result (`additionalContext`). */
  context?: string;
  /** `continue: false`: end the turn after this call; the reason is for the user. */
  stop?: string;
}

/**
 * One pre-execute listener, a PreToolUse hook or a plugin's (the bus's `tools/pre-execute`),
 * named by kind: `hook:<command>`, `plugin:<name>`; `decision.by`/`rule` and `rewritten_by`
 * record the name.
 */
export interface HookListener {
  name: string;
  /** How long `decide` may take before it counts as a failure (deny). Default 5000 ms; a hook's own timeout plus the kill grace. */
  timeoutMs?: number;
  decide(call: HookToolCall): HookVerdict | undefined | Promise<HookVerdict | undefined>;
}

export function createPreToolUseListeners(
  hooks: readonly HookConfig[],
  runtime: HookRuntime,
): HookListener[] {
  return hooks.map((hook) => ({
    name: hookName(hook),
    timeoutMs: (hook.timeout_ms ?? DEFAULT_HOOK_TIMEOUT_MS) + (runtime.killGraceMs ?? 1000) + 2000,
    async decide(call) {
      if (!matcherSelects(hook.matcher, call.name)) return undefined;
      const fields = {
        tool_name: claudeToolName(call.name),
        tool_input: toClaudeInput(call.name, call.arguments, runtime.session.cwd),
        tool_use_id: call.callId,
      };
      const outcome = await runOneHook("PreToolUse", hook, runtime, fields);
      return verdictOf(hook, outcome, call, runtime.session.cwd);
    },
  }));
}

function verdictOf(
  hook: HookConfig,
  outcome: HookOutcome,
  call: HookToolCall,
  cwd: string,
): HookVerdict {
  if (outcome.error !== undefined) {
    if (hook.on_error !== "deny") return { notice: outcome.error };
    return {
      outcome: "deny",
      reason: `${outcome.error} (on_error = "deny")`,
      notice: outcome.error,
    };
  }
  const verdict: HookVerdict = {};
  if (outcome.userMessage) verdict.notice = outcome.userMessage;
  if (outcome.additionalContext) verdict.context = outcome.additionalContext;
  if (outcome.stop) {
    return { ...verdict, outcome: "deny", reason: outcome.stop.reason, stop: outcome.stop.reason };
  }
  if (outcome.block) return { ...verdict, outcome: "deny", reason: outcome.block.reason };
  if (outcome.permission) {
    verdict.outcome = outcome.permission.outcome;
    if (outcome.permission.reason) verdict.reason = outcome.permission.reason;
  }
  if (outcome.updatedInput !== undefined && verdict.outcome !== "deny") {
    const args = fromClaudeInput(call.name, outcome.updatedInput, call.arguments, cwd);
    verdict.rewrite = { arguments: args, reason: outcome.permission?.reason ?? "updatedInput" };
  }
  return verdict;
}

// The hooks layer's public entry: Claude Code–compatible command hooks for a session, the
// hook environment, the hooks and permissions in effect (`effectivePolicy`), and the output
// policy every hook text goes through (`policedText`).
export type { HookEnvOptions } from "./env.ts";
export {
  hookEnvironment,
  providerKeyVars,
  withoutCredentials,
  withoutProviderKeys,
} from "./env.ts";
export type { HookSession } from "./input.ts";
export { askNotice, IDLE_NOTICE } from "./notification-text.ts";
export type { HookListener, HookToolCall, HookVerdict } from "./pre-tool-use.ts";
export { createPreToolUseListeners } from "./pre-tool-use.ts";
export { claudeToolName, compileMatcher, TOOL_MAPPINGS } from "./protocol.ts";
export type { HookRuntime } from "./run-event.ts";
export type { HookRunResult, HookRunSpec, HookSandbox } from "./run-hook.ts";
export { DEFAULT_HOOK_TIMEOUT_MS, HOOK_IO_CAP, runHookCommand } from "./run-hook.ts";
export type { HookNotes, SessionHooks, ToolCallFacts } from "./session-hooks.ts";
export { createSessionHooks } from "./session-hooks.ts";
export { policedLine, policedText } from "./text-policy.ts";
export type { EffectivePolicy, PolicyOptions, PolicyRule } from "./trust.ts";
export { effectivePolicy } from "./trust.ts";

// Runs the hooks configured for one event and reads each one's outcome. Every hook of an
// event gets the same input; they run in parallel and results keep configuration order.
// Shared by the PreToolUse listeners (one hook at a time) and the observer events. Each
// outcome's texts are policed (text-policy.ts) here, once, before anyone reads them.
import type { HookConfig, HookEvent } from "../config/index.ts";
import { maskSecretText } from "../config/index.ts";
import type { OutputPolicy } from "../runner/index.ts";
import { DEFAULT_OUTPUT_POLICY } from "../runner/index.ts";
import type { JsonValue } from "../session/events.ts";
import { hookProcessEnvironment } from "./env.ts";
import type { HookSession } from "./input.ts";
import { hookInputText } from "./input.ts";
import type { HookOutcome } from "./output.ts";
import { readHookOutcome } from "./output.ts";
import type { HookSandbox } from "./run-hook.ts";
import { DEFAULT_HOOK_TIMEOUT_MS, runHookCommand } from "./run-hook.ts";
import { policeOutcome } from "./text-policy.ts";

/** What every hook run needs from the session. */
export interface HookRuntime {
  session: HookSession;
  /**
   * The session's hook environment (hookEnvironment: no provider key, project dir set); each
   * hook runs with it less every credential but those its `env_allow` names.
   */
  env: NodeJS.ProcessEnv;
  /** Aborts running hooks when the turn is cancelled. */
  signal?: AbortSignal;
  /** Between SIGTERM and SIGKILL on timeout; default 1000 ms. */
  killGraceMs?: number;
  /**
   * The output policy for the hooks' texts: the session's `[output]` section
   * (`outputPolicyFor(config.output)`); default DEFAULT_OUTPUT_POLICY (30000 bytes).
   */
  output?: OutputPolicy;
  /** The OS sandbox hooks run in (`[sandbox] hooks`); absent: unconfined. */
  sandbox?: HookSandbox;
}

/** A hook's command as shown: its credentials (`--token x`, `KEY=x`, a URL's password) masked. */
function shownCommand(hook: HookConfig): string {
  return maskSecretText(hook.command);
}

/** `hook:<command>`: how decisions, rewrites and messages name a hook. */
export function hookName(hook: HookConfig): string {
  return `hook:${shownCommand(hook)}`;
}

/** `hook "<command>"`, shortened, for one-line messages. */
export function hookLabel(hook: HookConfig): string {
  const shown = shownCommand(hook);
  const command = shown.length > 60 ? `${shown.slice(0, 59)}…` : shown;
  return `hook "${command}"`;
}

export async function runOneHook(
  event: HookEvent,
  hook: HookConfig,
  runtime: HookRuntime,
  fields: Record<string, JsonValue>,
): Promise<HookOutcome> {
  const timeoutMs = hook.timeout_ms ?? DEFAULT_HOOK_TIMEOUT_MS;
  const result = await runHookCommand({
    command: hook.command,
    cwd: runtime.session.cwd,
    env: hookProcessEnvironment(runtime.env, hook.env_allow),
    input: hookInputText(event, runtime.session, fields),
    timeoutMs,
    ...(runtime.killGraceMs !== undefined ? { killGraceMs: runtime.killGraceMs } : {}),
    ...(runtime.signal ? { signal: runtime.signal } : {}),
    ...(runtime.sandbox ? { sandbox: runtime.sandbox } : {}),
  });
  const label = hookLabel(hook);
  const outcome = readHookOutcome(event, label, result, timeoutMs);
  return policeOutcome(outcome, runtime.output ?? DEFAULT_OUTPUT_POLICY, label);
}

export async function runEventHooks(
  event: HookEvent,
  hooks: readonly HookConfig[],
  runtime: HookRuntime,
  fields: Record<string, JsonValue>,
): Promise<Array<{ hook: HookConfig; outcome: HookOutcome }>> {
  return Promise.all(
    hooks.map(async (hook) => ({ hook, outcome: await runOneHook(event, hook, runtime, fields) })),
  );
}

// The "decide" step of the tool-call path (tool-calls.ts), as one pure unit: permission rules
// on the original arguments (a deny stops here), then the listeners in registration order
// (plugins from `tools/pre-execute`, then the PreToolUse hooks), each seeing the deep-frozen
// effective arguments; each rewrite is validated here, once, and its parsed value kept for
// execution; finally the rules see the effective call and the strictest verdict (deny > ask >
// allow) wins. The result is the call's one decision, which an ask settles and `tool/call` records.
import type { HookListener, HookToolCall, HookVerdict } from "../hooks/index.ts";
import type { PermissionDecision } from "../permissions/index.ts";
import { canonicalJson } from "../session/canonical-json.ts";
import type { JsonValue, ToolDecision } from "../session/events.ts";
import type { InputCheck } from "../tools/types.ts";

/** How hooks or plugins changed a call's arguments (`tool/call` and `agent/ask` carry it). */
interface Rewrite {
  /** The model's own arguments. */
  originalArguments: JsonValue;
  /** Who rewrote them, in order: "plugin:timeout, hook:./nice.sh". */
  rewrittenBy: string;
  rewriteReason: string;
}

/** One call's decision, from the composition through an ask to `tool/call`. */
export interface CallDecision {
  decision: ToolDecision;
  /** What runs and what `tool/call.arguments` records (after any rewrite). */
  arguments: JsonValue;
  /** `arguments` as the tool's input parsed them: exactly what runs. */
  parsed: unknown;
  rewrite?: Rewrite;
  /** One-line notices for the user. */
  notices: string[];
  /** Notes for the model, each with the listener that wrote it. */
  context: Array<{ by: string; text: string }>;
  /** A listener asked to end the turn after this call. */
  stop?: { reason: string; by: string };
}

export interface DecisionInput {
  /** The call with the model's arguments, which the toolbox parsed into `parsed`. */
  call: HookToolCall;
  parsed: unknown;
  /** Validates rewritten arguments against the tool's input (the call's own were already). */
  check(args: JsonValue): InputCheck;
  /** The permission rules and mode; asked before the listeners and again after a rewrite. */
  permissions?(call: { name: string; arguments: JsonValue }): PermissionDecision;
  listeners: readonly HookListener[];
}

const DEFAULT_LISTENER_TIMEOUT_MS = 5000;
const STRICTNESS = { allow: 1, ask: 2, deny: 3 } as const;

interface Rewrites {
  readonly original: JsonValue;
  current: JsonValue;
  /** The tool's parse of `current`. */
  parsed: unknown;
  by: string[];
  reasons: string[];
}

export async function decideCall(input: DecisionInput): Promise<CallDecision> {
  const original = deepFreeze(structuredClone(input.call.arguments));
  const rewrites: Rewrites = {
    original,
    current: original,
    parsed: input.parsed,
    by: [],
    reasons: [],
  };
  const extras: Extras = { notices: [], context: [] };
  const before = input.permissions?.({ name: input.call.name, arguments: original });
  if (before?.outcome === "deny") return finish(extras, before, rewrites);
  const verdicts: ToolDecision[] = [];
  for (const listener of input.listeners) {
    const call = { callId: input.call.callId, name: input.call.name, arguments: rewrites.current };
    const verdict = await ask(listener, call);
    collectExtras(extras, listener.name, verdict);
    if (verdict.outcome === "deny") {
      return finish(extras, fromListener(listener.name, "deny", verdict.reason), rewrites);
    }
    if (verdict.rewrite) {
      const problem = applyRewrite(rewrites, listener.name, verdict.rewrite, input.check);
      if (problem) return finish(extras, fromListener(listener.name, "deny", problem), rewrites);
    }
    if (verdict.outcome)
      verdicts.push(fromListener(listener.name, verdict.outcome, verdict.reason));
  }
  const after = isRewritten(rewrites)
    ? input.permissions?.({ name: input.call.name, arguments: rewrites.current })
    : before;
  if (after) verdicts.unshift(after);
  return finish(extras, strictest(verdicts) ?? { outcome: "allow", by: "default" }, rewrites);
}

/** Runs one listener; a throw, a rejection or a timeout is a deny naming it (fail closed). */
async function ask(listener: HookListener, call: HookToolCall): Promise<HookVerdict> {
  const limit = listener.timeoutMs ?? DEFAULT_LISTENER_TIMEOUT_MS;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<HookVerdict>((resolve) => {
    timer = setTimeout(() => resolve(failed(listener, `did not answer within ${limit} ms`)), limit);
  });
  try {
    const answer = Promise.resolve().then(() => listener.decide(call));
    return (await Promise.race([answer, timeout])) ?? {};
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return failed(listener, `failed: ${message}`);
  } finally {
    clearTimeout(timer);
  }
}

function failed(listener: HookListener, what: string): HookVerdict {
  const reason = `${listener.name} ${what}`;
  return { outcome: "deny", reason, notice: reason };
}

/** Applies a rewrite unless it changes nothing; returns the problem when it is invalid. */
function applyRewrite(
  rewrites: Rewrites,
  by: string,
  rewrite: NonNullable<HookVerdict["rewrite"]>,
  check: DecisionInput["check"],
): string | undefined {
  const next = deepFreeze(structuredClone(rewrite.arguments));
  if (canonicalJson(next) === canonicalJson(rewrites.current)) return undefined;
  const checked = check(next);
  if (!checked.ok) {
    return `${by} rewrote the arguments into invalid ones: ${checked.issues.join("; ")}`;
  }
  rewrites.current = next;
  rewrites.parsed = checked.value;
  rewrites.by.push(by);
  rewrites.reasons.push(rewrite.reason);
  return undefined;
}

type Extras = Pick<CallDecision, "notices" | "context" | "stop">;

function isRewritten(rewrites: Rewrites): boolean {
  return canonicalJson(rewrites.current) !== canonicalJson(rewrites.original);
}

function collectExtras(extras: Extras, by: string, verdict: HookVerdict): void {
  if (verdict.notice) extras.notices.push(verdict.notice);
  if (verdict.context) extras.context.push({ by, text: verdict.context });
  if (verdict.stop && !extras.stop) extras.stop = { reason: verdict.stop, by };
}

/** The result; the rewrite only when the effective arguments differ from the original. */
function finish(extras: Extras, decision: ToolDecision, rewrites: Rewrites): CallDecision {
  const { current, original, parsed } = rewrites;
  const result: CallDecision = { ...extras, decision, arguments: current, parsed };
  if (!isRewritten(rewrites)) return result;
  const rewrittenBy = rewrites.by.join(", ");
  const rewrite = {
    originalArguments: original,
    rewrittenBy,
    rewriteReason: rewrites.reasons.join("; "),
  };
  return { ...result, rewrite };
}

/** The first of the strictest decisions: deny > ask > allow, ties to the earliest. */
function strictest(decisions: readonly ToolDecision[]): ToolDecision | undefined {
  let best: ToolDecision | undefined;
  for (const decision of decisions) {
    if (!best || STRICTNESS[decision.outcome] > STRICTNESS[best.outcome]) best = decision;
  }
  return best;
}

/** `hook:./guard.sh` → by "hook", rule "./guard.sh"; other names count as plugins. */
function fromListener(name: string, outcome: ToolDecision["outcome"], reason?: string) {
  const colon = name.indexOf(":");
  const kind = colon === -1 ? "" : name.slice(0, colon);
  const by: ToolDecision["by"] = kind === "hook" ? "hook" : "plugin";
  const rule = kind === "hook" || kind === "plugin" ? name.slice(colon + 1) : name;
  const fallback =
    outcome === "ask" ? `${name} asks first` : outcome === "deny" ? `denied by ${name}` : undefined;
  const why = reason ?? fallback;
  return { outcome, by, rule, ...(why ? { reason: why } : {}) } satisfies ToolDecision;
}

/** Freezes a JSON value and everything in it; returns it. */
function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

// Composes everything that decides one tool call before it runs, as one unit: permission
// rules on the original arguments (a deny stops here), then the pre-execute listeners in
// registration order (plugins, PreToolUse hooks), each seeing the deep-frozen effective
// arguments; each rewrite is validated here, once, and its parsed value kept for execution;
// finally the rules see the effective call and the strictest verdict (deny > ask > allow)
// wins. The result fills `tool/call` directly. pre-execute.ts calls it.
import type { HookToolCall, HookVerdict } from "../hooks/pre-tool-use.ts";
import { canonicalJson } from "../session/canonical-json.ts";
import type { JsonValue, ToolDecision } from "../session/events.ts";
import type { InputCheck } from "../tools/types.ts";

/**
 * The call as every listener sees it (`arguments` deep-frozen), and a listener's answer. They
 * are defined beside the PreToolUse hooks, the layer below, which produce them too.
 */
export type FrozenCall = HookToolCall;
export type ListenerVerdict = HookVerdict;

/**
 * One decider, named by kind: `plugin:<name>`, `hook:<command>`. The name is what
 * `decision.by`/`decision.rule` and `rewritten_by` record.
 */
export interface PreExecuteListener {
  name: string;
  /** How long `decide` may take before it counts as a failure (deny). Default 5000 ms. */
  timeoutMs?: number;
  decide(call: FrozenCall): ListenerVerdict | undefined | Promise<ListenerVerdict | undefined>;
}

/** The permission layer's verdict on a call (see permissions/evaluate.ts). */
export interface GateDecision {
  outcome: "allow" | "deny" | "ask";
  by: "rule" | "mode";
  rule: string;
  reason?: string;
}

export interface ComposeInput {
  call: FrozenCall;
  /** Validates rewritten arguments against the tool's input (the call's own were already). */
  check(args: JsonValue): InputCheck;
  /** The permission rules and mode; asked before the listeners and again after a rewrite. */
  permissions?(call: { name: string; arguments: JsonValue }): GateDecision;
  listeners: readonly PreExecuteListener[];
}

/** Shaped to fill `tool/call`: `arguments` ← effectiveArguments, and the rewrite fields. */
export interface ComposedDecision {
  decision: ToolDecision;
  effectiveArguments: JsonValue;
  originalArguments?: JsonValue;
  /** For a rewritten call: the effective arguments as the tool's input parsed them. */
  rewrittenParsed?: unknown;
  rewrittenBy?: string;
  rewriteReason?: string;
  notices: string[];
  /** Notes for the model, each with the listener that wrote it. */
  context: Array<{ by: string; text: string }>;
  stop?: { reason: string; by: string };
}

const DEFAULT_LISTENER_TIMEOUT_MS = 5000;
const STRICTNESS = { allow: 1, ask: 2, deny: 3 } as const;

interface Rewrites {
  readonly original: JsonValue;
  current: JsonValue;
  /** `check`'s value for `current`, once a rewrite was accepted. */
  parsed?: unknown;
  by: string[];
  reasons: string[];
}

export async function composePreExecute(input: ComposeInput): Promise<ComposedDecision> {
  const original = deepFreeze(structuredClone(input.call.arguments));
  const rewrites: Rewrites = { original, current: original, by: [], reasons: [] };
  const extras: Extras = { notices: [], context: [] };
  const before = input.permissions?.({ name: input.call.name, arguments: original });
  if (before?.outcome === "deny") return finish(extras, fromGate(before), rewrites);
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
  if (after) verdicts.unshift(fromGate(after));
  return finish(extras, strictest(verdicts) ?? { outcome: "allow", by: "default" }, rewrites);
}

/** Runs one listener; a throw, a rejection or a timeout is a deny naming it (fail closed). */
async function ask(listener: PreExecuteListener, call: FrozenCall): Promise<ListenerVerdict> {
  const limit = listener.timeoutMs ?? DEFAULT_LISTENER_TIMEOUT_MS;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<ListenerVerdict>((resolve) => {
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

function failed(listener: PreExecuteListener, what: string): ListenerVerdict {
  const reason = `${listener.name} ${what}`;
  return { outcome: "deny", reason, notice: reason };
}

/** Applies a rewrite unless it changes nothing; returns the problem when it is invalid. */
function applyRewrite(
  rewrites: Rewrites,
  by: string,
  rewrite: NonNullable<ListenerVerdict["rewrite"]>,
  check: ComposeInput["check"],
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

type Extras = Pick<ComposedDecision, "notices" | "context" | "stop">;

function isRewritten(rewrites: Rewrites): boolean {
  return canonicalJson(rewrites.current) !== canonicalJson(rewrites.original);
}

function collectExtras(extras: Extras, by: string, verdict: ListenerVerdict): void {
  if (verdict.notice) extras.notices.push(verdict.notice);
  if (verdict.context) extras.context.push({ by, text: verdict.context });
  if (verdict.stop && !extras.stop) extras.stop = { reason: verdict.stop, by };
}

/** The result; the rewrite fields only when the effective arguments differ from the original. */
function finish(extras: Extras, decision: ToolDecision, rewrites: Rewrites): ComposedDecision {
  const result: ComposedDecision = { ...extras, decision, effectiveArguments: rewrites.current };
  if (!isRewritten(rewrites)) return result;
  return {
    ...result,
    originalArguments: rewrites.original,
    rewrittenParsed: rewrites.parsed,
    rewrittenBy: rewrites.by.join(", "),
    rewriteReason: rewrites.reasons.join("; "),
  };
}

/** The first of the strictest decisions: deny > ask > allow, ties to the earliest. */
function strictest(decisions: readonly ToolDecision[]): ToolDecision | undefined {
  let best: ToolDecision | undefined;
  for (const decision of decisions) {
    if (!best || STRICTNESS[decision.outcome] > STRICTNESS[best.outcome]) best = decision;
  }
  return best;
}

function fromGate(gate: GateDecision): ToolDecision {
  return { outcome: gate.outcome, by: gate.by, rule: gate.rule, ...reasonOf(gate.reason) };
}

/** `hook:./guard.sh` → by "hook", rule "./guard.sh"; other names count as plugins. */
function fromListener(name: string, outcome: ToolDecision["outcome"], reason?: string) {
  const colon = name.indexOf(":");
  const kind = colon === -1 ? "" : name.slice(0, colon);
  const by: ToolDecision["by"] = kind === "hook" ? "hook" : "plugin";
  const rule = kind === "hook" || kind === "plugin" ? name.slice(colon + 1) : name;
  const fallback =
    outcome === "ask" ? `${name} asks first` : outcome === "deny" ? `denied by ${name}` : undefined;
  return { outcome, by, rule, ...reasonOf(reason ?? fallback) } satisfies ToolDecision;
}

function reasonOf(reason: string | undefined): { reason?: string } {
  return reason ? { reason } : {};
}

/** Freezes a JSON value and everything in it; returns it. */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

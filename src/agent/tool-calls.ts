// The tool calls of one assistant message, each down one path (src/agent/README.md): prepare
// (the toolbox parses and validates the model's arguments, once), decide (rules, plugins and
// hooks: tool-call-decision.ts, which validates a rewrite itself), ask (the guard's asks wait
// for a surface's answer), record `tool/call` (synced, for every call before any runs),
// execute with exactly the recorded arguments, record `tool/result` and run the PostToolUse
// hooks. Refused, invalid, cut-off (providers/output-limit.ts) and custom (free-form) calls
// get an error result the model reads; a cancel ends running calls as interrupted and skips the rest; a hook or
// plugin stop ends the turn after the running call. A call that may change files runs inside
// its checkpoints (call-checkpoints.ts). turn.ts calls it.
import { policedLine, policedText } from "../hooks/index.ts";
import { evaluatePermission, prepareBashRules } from "../permissions/index.ts";
import type { ModelToolCall } from "../providers/index.ts";
import type { ProxiedConnection } from "../runner/index.ts";
import { outputPolicyFor } from "../runner/index.ts";
import type { EventInput, JsonValue } from "../session/events.ts";
import { imageDirOf } from "../session/images.ts";
import { presentToolCall } from "../tools/presentation.ts";
import { withAddedText } from "../tools/tool-output.ts";
import { parseToolArguments } from "../tools/toolbox.ts";
import type { DeliveredResult, Tool, ToolProgress, ToolResult } from "../tools/types.ts";
import { applyHookNotes, notify, recordNotes, stopMessage } from "./notes.ts";
import { rewriteNote } from "./rewrite-note.ts";
import type { RunContext } from "./run-context.ts";
import { offerToRunOutside } from "./sandbox-escalation.ts";
import { type CallDecision, decideCall } from "./tool-call-decision.ts";
import { errorResult, interruptedResult, resultEvent } from "./tool-results.ts";

export const CANCELLED_RESULT = "The tool call was cancelled by the user before it finished.";
export const NOT_RUN_RESULT = "The tool call was not run: the user cancelled the turn.";
export const CUT_CALL_RESULT =
  "The tool call was not run: the response reached its output token limit while writing it, so its arguments were cut off. Make the call again, with shorter arguments or split into smaller calls.";
/** A Responses custom tool call: codewhale declares none, every tool takes JSON arguments. */
function customCallResult(name: string): string {
  return `The tool call was not run: ${name} was called as a custom tool with free-form input, but codewhale declares no custom tools; every tool takes JSON arguments. Make the call again as a function call with JSON arguments that match the tool's schema.`;
}
/** After a cancel, how long a running tool has to stop and hand back what it has so far. */
const CANCEL_GRACE_MS = 3000;

/** A call the user cancelled, with the tool's own result when it came within the grace. */
interface Cancelled {
  cancelled: DeliveredResult | null;
}

/** A recorded call that may run: its tool and the arguments its `tool/call` records. */
interface PreparedCall {
  callId: string;
  name: string;
  tool: Tool;
  /** The recorded `arguments` as the tool's input parsed them (validated once). */
  args: unknown;
  /** The recorded `arguments` as JSON (what PostToolUse hooks see). */
  recorded: JsonValue;
  /** For a rewritten call: the note its result starts with. */
  note?: string;
  /** The allow rule that let the call run, when a rule did. */
  allowedBy?: string;
}

/** A hook or plugin asked to end the turn. */
export interface TurnStop {
  reason: string;
  by: string;
}

interface RecordedCalls {
  prepared: PreparedCall[];
  stop?: TurnStop;
}

/**
 * Records a `tool/call` for every call of the message (and the error result of each refused
 * or invalid one) before any runs, so the history never has a gap between the assistant
 * message and its calls. Returns the calls to execute, in order. After a stop request the
 * remaining calls are refused.
 */
export async function recordToolCalls(
  ctx: RunContext,
  turn: number,
  step: number,
  calls: readonly ModelToolCall[],
  signal: AbortSignal,
): Promise<RecordedCalls> {
  const recorded: RecordedCalls = { prepared: [] };
  for (const call of calls) {
    if (signal.aborted) recordNotRun(ctx, turn, step, call, argumentsOf(call));
    else if (call.cut) recordRefused(ctx, turn, step, call, argumentsOf(call), CUT_CALL_RESULT);
    else if (call.custom) {
      recordRefused(ctx, turn, step, call, argumentsOf(call), customCallResult(call.name));
    } else if (recorded.stop) {
      recordRefused(ctx, turn, step, call, argumentsOf(call), stopped(recorded.stop));
    } else {
      const ready = await recordOne(ctx, turn, step, call, signal);
      if (ready.prepared) recorded.prepared.push(ready.prepared);
      if (ready.stop) recorded.stop = ready.stop;
    }
  }
  return recorded;
}

/**
 * Executes recorded calls in order, each followed by its PostToolUse hooks; a run of
 * neighbouring concurrent calls (`task`) starts together, up to `[subagents] max_concurrent` at
 * once, and their results are recorded in order. After a cancel or a stop the rest end as not
 * run. Returns a PostToolUse hook's stop request, if any.
 */
export async function executeToolCalls(
  ctx: RunContext,
  turn: number,
  prepared: readonly PreparedCall[],
  signal: AbortSignal,
): Promise<TurnStop | undefined> {
  let stop: TurnStop | undefined;
  const started = new Map<PreparedCall, Promise<DeliveredResult | Cancelled>>();
  for (const [index, call] of prepared.entries()) {
    let running = started.get(call);
    if (!running && (signal.aborted || stop)) {
      const why = stop ? `The tool call was not run: ${stopped(stop)}.` : NOT_RUN_RESULT;
      ctx.writer.append(interruptedResult(call.callId, why));
      continue;
    }
    if (!running && call.tool.concurrent) {
      startTogether(prepared, index, started, ctx.config.subagents.max_concurrent, (next) =>
        executeOffering(next, ctx, turn, signal),
      );
      running = started.get(call);
    }
    // Calls run together (subagents) are not captured one by one: the next checkpoint finds
    // what they changed.
    const around = { callId: call.callId, turn, tool: call.tool, args: call.args };
    const result = await (running ??
      ctx.checkpoints.around(around, () => executeOffering(call, ctx, turn, signal)));
    if ("cancelled" in result) {
      ctx.writer.append(cancelledResult(call.callId, result.cancelled));
      continue;
    }
    const noted = withNote(result, call.note);
    const delivered = ctx.rules ? ctx.rules.withRules(noted, call.args, ctx.cwd) : noted;
    ctx.writer.append(resultEvent(call.callId, delivered, false, imageDirOf(ctx.writer.path)));
    notifyPolicyErrors(ctx, call, delivered);
    // A tool that sets the todo list hands it back (todo_write): the log keeps the list.
    if (delivered.todos && !delivered.isError) {
      ctx.writer.append({ type: "todo/update", todos: delivered.todos });
    }
    const facts = { callId: call.callId, name: call.name, arguments: call.recorded };
    const outcome = { content: delivered.content, isError: delivered.isError ?? false };
    const notes = await ctx.guard.hooks.postToolUse(facts, outcome);
    applyHookNotes(ctx, turn, "PostToolUse", notes, call.callId);
    stop ??= notes.stop;
  }
  return stop;
}

/**
 * Starts the run of concurrent calls from `first` on (up to the next call that is not), at
 * most `limit` running at once; each call's promise goes into `started`.
 */
function startTogether<T>(
  calls: readonly PreparedCall[],
  first: number,
  started: Map<PreparedCall, Promise<T>>,
  limit: number,
  run: (call: PreparedCall) => Promise<T>,
): void {
  let free = limit;
  const waiting: Array<() => void> = [];
  const slot = (): Promise<void> => {
    if (free === 0) return new Promise<void>((resolve) => waiting.push(resolve));
    free--;
    return Promise.resolve();
  };
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else free++;
  };
  for (const call of calls.slice(first)) {
    if (!call.tool.concurrent) break;
    started.set(
      call,
      slot().then(() => run(call).finally(release)),
    );
  }
}

async function recordOne(
  ctx: RunContext,
  turn: number,
  step: number,
  call: ModelToolCall,
  signal: AbortSignal,
): Promise<{ prepared?: PreparedCall; stop?: TurnStop }> {
  // Prepare: the one check of the model's arguments.
  const checked = ctx.tools.prepare(call.name, call.arguments);
  if (!checked.ok) {
    recordRefused(ctx, turn, step, call, checked.args, checked.reason);
    return {};
  }
  const { tool } = checked;
  // Decide: rules, plugins and hooks (a rewrite is validated there); an ask waits for a surface.
  const composed = await decide(ctx, call, tool, checked.args, checked.parsed);
  const asked = { turn, signal, callId: call.id, name: call.name, tool: traitsOf(tool) };
  const presentation = present(ctx, call.name, composed.arguments);
  const decided = await ctx.guard.asks.settle({ ...asked, presentation }, composed);
  if (signal.aborted) {
    recordNotRun(ctx, turn, step, call, checked.args);
    return {};
  }
  // Record the call, then the error result of a refused one.
  ctx.writer.append(callEvent(turn, step, call, decided));
  const allowed = decided.decision.outcome === "allow";
  if (!allowed) ctx.writer.append(errorResult(call.id, decided.decision.reason ?? "denied"));
  notify(ctx, "pre-execute", decided.notices);
  for (const note of decided.context) {
    recordNotes(ctx, turn, noteSource(note.by), [note.text], call.id);
  }
  const { stop } = decided;
  if (!allowed) return stop ? { stop } : {};
  // What runs is exactly what was recorded, as the check above or the rewrite's parsed it.
  const prepared: PreparedCall = {
    callId: call.id,
    name: call.name,
    tool,
    args: decided.parsed,
    recorded: decided.arguments,
    ...(decided.rewrite ? { note: await noteFor(ctx, call.name, decided) } : {}),
    ...(decided.decision.by === "rule" && decided.decision.rule
      ? { allowedBy: decided.decision.rule }
      : {}),
  };
  return stop ? { prepared, stop } : { prepared };
}

/** The composition of one valid call: plugins from the bus, then hooks, around the rules. */
async function decide(
  ctx: RunContext,
  call: ModelToolCall,
  tool: Tool,
  args: JsonValue,
  parsed: unknown,
): Promise<CallDecision> {
  const { guard } = ctx;
  const plugins = await ctx.bus.collect("tools/pre-execute", {
    sessionId: ctx.sessionId,
    cwd: ctx.cwd,
  });
  // Bash rules read the command with a parser loaded on first need; evaluation is synchronous.
  await prepareBashRules(call.name, guard.permissions);
  const traits = traitsOf(tool);
  return decideCall({
    call: { callId: call.id, name: call.name, arguments: args },
    parsed,
    check: (next) => tool.input.check(next),
    permissions: (c) =>
      evaluatePermission({ ...c, tool: traits }, guard.permissions, guard.context),
    listeners: [...plugins, ...guard.hooks.preToolUseListeners()],
  });
}

/** How the permission layer sees a tool: its declared kind and whether it is read-only. */
function traitsOf(tool: Tool) {
  return { readOnly: tool.readOnly, kind: tool.kind };
}

/** How a call is shown: its static presenter, else the session tool's own, else plain. */
function present(ctx: RunContext, name: string, args: JsonValue) {
  return presentToolCall(ctx.tools.presenter(name), name, args);
}

/**
 * The arguments of a call that will not be checked (cancelled, refused after a stop); a custom
 * call's raw input is kept as the string it is.
 */
function argumentsOf(call: ModelToolCall): JsonValue {
  return call.custom ? call.arguments : parseToolArguments(call.arguments).value;
}

/**
 * The rewrite note, through the output policy like every text a hook or plugin wrote. It gives
 * the reason's first line; the whole reason is in `tool/call.rewrite_reason`.
 */
async function noteFor(ctx: RunContext, name: string, decided: CallDecision) {
  const policy = outputPolicyFor(ctx.config.output);
  const { rewrittenBy, rewriteReason } = decided.rewrite ?? { rewrittenBy: "", rewriteReason: "" };
  const why = rewriteReason ? await policedLine(rewriteReason, policy) : "";
  const note = rewriteNote(name, decided.arguments, rewrittenBy, why || undefined);
  return policedText(note, policy);
}

/** A hook listener's note comes from the PreToolUse event; a plugin's keeps its name. */
function noteSource(listener: string): string {
  return listener.startsWith("hook:") ? "hook:PreToolUse" : listener;
}

function stopped(stop: TurnStop): string {
  return `the turn was ${stopMessage(stop)}`;
}

/** Runs the tool; when the OS sandbox refused it, offers to run it again outside. */
async function executeOffering(
  call: PreparedCall,
  ctx: RunContext,
  turn: number,
  signal: AbortSignal,
): Promise<DeliveredResult | Cancelled> {
  const first = await execute(call, ctx, signal);
  if (!("cancelled" in first)) noticeNestedRepos(ctx, call.name, first);
  if ("cancelled" in first || first.sandboxRefused === undefined) return first;
  return offerToRunOutside({
    ctx,
    call,
    turn,
    signal,
    presentation: present(ctx, call.name, call.recorded),
    first,
    again: () => execute(call, ctx, signal, true),
  });
}

/** Tells the user (every surface) of a nested repository the command left for host git to run. */
function noticeNestedRepos(ctx: RunContext, name: string, result: DeliveredResult): void {
  const repos = result.sandbox?.nested_repos;
  if (!repos || repos.length === 0) return;
  const message = `sandbox: warning: after a ${name} command, a nested git repository linked from the index runs a program when git runs outside the sandbox (git status at the top): ${repos.join("; ")}`;
  ctx.bus.emit("agent/notice", { message, source: "policy" });
}

/**
 * Runs the tool. Once the signal aborts, waits at most CANCEL_GRACE_MS for the tool to stop
 * and return what it has (bash: the output so far), then resolves cancelled even if it lingers.
 */
async function execute(
  call: PreparedCall,
  ctx: RunContext,
  signal: AbortSignal,
  outsideSandbox = false,
): Promise<DeliveredResult | Cancelled> {
  let onAbort = () => {};
  const aborted = new Promise<"cancelled">((resolve) => {
    onAbort = () => resolve("cancelled");
    signal.addEventListener("abort", onAbort, { once: true });
  });
  const toolCtx = {
    signal,
    cwd: ctx.cwd,
    sessionId: ctx.sessionId,
    callId: call.callId,
    output: ctx.tools.output,
    progress: (update: ToolProgress) => {
      if (!signal.aborted)
        ctx.bus.emit("tool/progress", { ...update, callId: call.callId, tool: call.name });
    },
    connection: (connection: ProxiedConnection) => {
      ctx.writer.append({ type: "sandbox/connection", call_id: call.callId, ...connection });
    },
    ...(outsideSandbox ? { outsideSandbox } : {}),
  };
  const running = call.tool.run(call.args, toolCtx);
  try {
    const result = await Promise.race([running, aborted]);
    if (!signal.aborted) return result as DeliveredResult;
    return { cancelled: await within(running, CANCEL_GRACE_MS) };
  } finally {
    signal.removeEventListener("abort", onAbort);
  }
}

function within<T>(promise: Promise<T>, ms: number): Promise<T | null> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/**
 * The interrupted result of a cancelled call. A result the tool policed as it streamed holds
 * what the tool produced before it was stopped, e.g. bash's output and its `[cancelled; …]`
 * status line: it is kept after the cancellation message.
 */
function cancelledResult(callId: string, partial: DeliveredResult | null): EventInput {
  if (!partial?.streamed) return interruptedResult(callId, CANCELLED_RESULT);
  const delivered = withNote({ ...partial, isError: true }, CANCELLED_RESULT);
  return resultEvent(callId, delivered, true);
}

/** The result the model receives: a rewritten call's starts with the rewrite note. */
function withNote(result: ToolResult, note: string | undefined): ToolResult {
  return note === undefined ? result : withAddedText(result, `${note}\n\n`, "");
}

function recordNotRun(
  ctx: RunContext,
  turn: number,
  step: number,
  call: ModelToolCall,
  args: JsonValue,
): void {
  const decision = { outcome: "deny", by: "user", reason: "cancelled" } as const;
  ctx.writer.append(callEvent(turn, step, call, { decision, arguments: args }));
  ctx.writer.append(interruptedResult(call.id, NOT_RUN_RESULT));
}

/** An invalid or refused call: `tool/call` denied by default, then its error result. */
function recordRefused(
  ctx: RunContext,
  turn: number,
  step: number,
  call: ModelToolCall,
  args: JsonValue,
  reason: string,
): void {
  const decision = { outcome: "deny", by: "default", reason } as const;
  ctx.writer.append(callEvent(turn, step, call, { decision, arguments: args }));
  ctx.writer.append(errorResult(call.id, reason));
}

function callEvent(
  turn: number,
  step: number,
  call: ModelToolCall,
  decided: Pick<CallDecision, "decision" | "arguments" | "rewrite">,
): EventInput {
  const { rewrite } = decided;
  return {
    type: "tool/call",
    turn,
    step,
    call_id: call.id,
    name: call.name,
    arguments: decided.arguments,
    ...(rewrite
      ? {
          original_arguments: rewrite.originalArguments,
          rewritten_by: rewrite.rewrittenBy,
          rewrite_reason: rewrite.rewriteReason,
        }
      : {}),
    decision: decided.decision,
  };
}

/**
 * A stage of the output policy that failed (the spill, the redactor) failed open: the result
 * was still delivered, and the person running the session is told in one status line.
 */
function notifyPolicyErrors(ctx: RunContext, call: PreparedCall, result: ToolResult): void {
  const errors = result.policyErrors ?? [];
  if (errors.length === 0) return;
  const line = `output policy: ${call.name} (${call.callId}): ${errors.join("; ")}; the output was still delivered`;
  notify(ctx, "output", [line]);
}

// Reads what a hook process said, by Claude Code's rules: exit 0 with optional JSON on stdout,
// exit 2 = block with stderr as the reason, any other exit (or a timeout, or JSON that does
// not parse) = an error shown to the user as one line. This module only reads, and its texts
// are raw: text-policy.ts polices them; pre-tool-use.ts and session-hooks.ts give them meaning.
import * as z from "zod";
import type { HookEvent } from "../config/index.ts";
import { stripControls } from "../runner/index.ts";
import type { JsonValue } from "../session/events.ts";
import type { HookRunResult } from "./run-hook.ts";

export interface HookOutcome {
  /** `permissionDecision` (or the legacy `decision: "approve" | "block"`), PreToolUse only. */
  permission?: { outcome: "allow" | "deny" | "ask"; reason?: string };
  /** `updatedInput`, in Claude Code's keys. */
  updatedInput?: JsonValue;
  /** Exit 2 (stderr) or `decision: "block"` (`reason`). */
  block?: { reason: string };
  additionalContext?: string;
  /** `continue: false`: stop the turn, with `stopReason` for the user. */
  stop?: { reason: string };
  /** The hook failed (timeout, crash, exit other than 0/2, bad JSON): one line. */
  error?: string;
  /** `systemMessage`: a note for the user, shown as one line. */
  userMessage?: string;
  suppressOutput?: boolean;
}

const outputSchema = z.looseObject({
  continue: z.boolean().optional(),
  stopReason: z.string().optional(),
  suppressOutput: z.boolean().optional(),
  systemMessage: z.string().optional(),
  decision: z.enum(["block", "approve"]).optional(),
  reason: z.string().optional(),
  hookSpecificOutput: z
    .looseObject({
      hookEventName: z.string().optional(),
      permissionDecision: z.enum(["allow", "deny", "ask"]).optional(),
      permissionDecisionReason: z.string().optional(),
      updatedInput: z.record(z.string(), z.json()).optional(),
      additionalContext: z.string().optional(),
    })
    .optional(),
});
type HookJson = z.infer<typeof outputSchema>;

/** Events whose plain (non-JSON) stdout on exit 0 is context for the model. */
const PLAIN_STDOUT_IS_CONTEXT: ReadonlySet<HookEvent> = new Set([
  "UserPromptSubmit",
  "SessionStart",
]);

export function readHookOutcome(
  event: HookEvent,
  label: string,
  result: HookRunResult,
  timeoutMs: number,
): HookOutcome {
  const failure = failureOf(label, result, timeoutMs);
  if (failure) return { error: failure };
  if (result.exitCode === 2) {
    const reason = result.stderr.trim() || `${label} blocked it (exit 2)`;
    return { block: { reason } };
  }
  const stdout = result.stdout.trim();
  if (stdout === "") return {};
  if (!stdout.startsWith("{")) {
    return PLAIN_STDOUT_IS_CONTEXT.has(event) ? { additionalContext: stdout } : {};
  }
  const parsed = parseJson(stdout);
  if (parsed === undefined) {
    const why = result.stdoutTruncated ? "stdout passed the 1 MiB cap" : "not valid JSON";
    return { error: `${label} printed unreadable output (${why})` };
  }
  const checked = outputSchema.safeParse(parsed);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    const where = issue ? `${issue.path.join(".")}: ${issue.message}` : "unexpected shape";
    return { error: `${label} printed unexpected JSON (${where})` };
  }
  return fromJson(event, checked.data);
}

function fromJson(event: HookEvent, json: HookJson): HookOutcome {
  const specific = json.hookSpecificOutput;
  const outcome: HookOutcome = {};
  if (json.continue === false) outcome.stop = { reason: json.stopReason ?? "stopped by a hook" };
  if (json.systemMessage) outcome.userMessage = json.systemMessage;
  if (json.suppressOutput) outcome.suppressOutput = true;
  if (specific?.additionalContext) outcome.additionalContext = specific.additionalContext;
  if (event === "PreToolUse") {
    const legacy =
      json.decision === "approve" ? "allow" : json.decision === "block" ? "deny" : undefined;
    const decided = specific?.permissionDecision ?? legacy;
    const reason = specific?.permissionDecisionReason ?? json.reason;
    if (decided) outcome.permission = { outcome: decided, ...(reason ? { reason } : {}) };
    if (specific?.updatedInput) outcome.updatedInput = specific.updatedInput;
  } else if (json.decision === "block") {
    outcome.block = { reason: json.reason ?? "blocked by a hook" };
  }
  return outcome;
}

function failureOf(label: string, result: HookRunResult, timeoutMs: number): string | undefined {
  if (result.spawnError) return `${label} could not start: ${firstLine(result.spawnError)}`;
  if (result.timedOut) return `${label} timed out after ${timeoutMs} ms`;
  if (result.cancelled) return `${label} was cancelled`;
  if (result.exitCode === null) return `${label} was killed by ${result.signal ?? "a signal"}`;
  if (result.exitCode === 0 || result.exitCode === 2) return undefined;
  const detail = firstLine(result.stderr);
  return `${label} failed with exit code ${result.exitCode}${detail ? `: ${detail}` : ""}`;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * The first line that is not empty once control sequences are stripped, trimmed. Not shortened:
 * a secret cut in half would escape the redactor, so oneLine() shortens after policing.
 */
function firstLine(text: string): string {
  const lines = stripControls(text).split("\n");
  return lines.find((candidate) => candidate.trim() !== "")?.trim() ?? "";
}

/** The first non-empty line, control sequences stripped, at most 200 characters. */
export function oneLine(text: string): string {
  const line = firstLine(text);
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}

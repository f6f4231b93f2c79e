// How an `ask` decision is resolved. Each surface brings its own AskResolver (terminal
// prompt, ACP request_permission); `codewhale exec` cannot ask, so its resolver denies with a
// reason that says exactly how to allow the call next time (mode, config rule, or flag).
import { relative } from "node:path";
import type { JsonValue } from "../session/events.ts";
import type { PermissionCall, PermissionContext } from "./evaluate.ts";
import { normalizeCommand } from "./rules.ts";
import { commandOf, pathOf, toolKind } from "./tool-kinds.ts";

export interface AskAnswer {
  outcome: "allow" | "deny";
  /** "session": remember the answer (as the suggested rule) for the rest of the session. */
  scope?: "once" | "session";
  /** "user" when a person answered; "default" when the surface answered for lack of one. */
  by: "user" | "default";
  reason?: string;
}

/** A call awaiting an answer: the effective arguments, plus who rewrote them and why. */
export interface AskCall extends PermissionCall {
  callId?: string;
  rewrittenBy?: string;
  rewriteReason?: string;
}

/**
 * Resolves an `ask`. `original` is set when the call was rewritten: a prompt must then show
 * both the original and the effective arguments.
 */
export type AskResolver = (
  call: AskCall,
  reason: string,
  original?: JsonValue,
) => Promise<AskAnswer>;

/** The narrowest rule that allows this exact call: `bash(npm test)`, `edit(src/a.ts)`. */
export function suggestRule(call: PermissionCall, ctx: PermissionContext): string {
  const command = commandOf(call.name, call.arguments);
  if (command !== undefined) return `${call.name}(${normalizeCommand(command)})`;
  const path = pathOf(call.name, call.arguments, ctx.cwd, ctx.home);
  if (path === undefined) return call.name;
  return `${call.name}(${rulePath(path, ctx)})`;
}

/** Workspace-relative inside the workspace, `~/…` under the home, else absolute. */
function rulePath(path: string, ctx: PermissionContext): string {
  const inWorkspace = relative(ctx.workspaceRoot, path);
  if (inWorkspace !== "" && !inWorkspace.startsWith("..") && !inWorkspace.startsWith("/")) {
    return inWorkspace.includes("/") ? inWorkspace : `./${inWorkspace}`;
  }
  const inHome = relative(ctx.home, path);
  if (inHome !== "" && !inHome.startsWith("..") && !inHome.startsWith("/")) return `~/${inHome}`;
  return path;
}

/** The resolver for `codewhale exec`: no one to ask, so deny and say how to allow it. */
export function createExecAskResolver(ctx: PermissionContext): AskResolver {
  return async (call, reason) => ({
    outcome: "deny",
    by: "default",
    reason: execDenialMessage(call, reason, ctx),
  });
}

export function execDenialMessage(call: PermissionCall, reason: string, ctx: PermissionContext) {
  const rule = suggestRule(call, ctx);
  const path = pathOf(call.name, call.arguments, ctx.cwd, ctx.home);
  const inside = path === undefined || !relative(ctx.workspaceRoot, path).startsWith("..");
  const mode = toolKind(call.name, call.tool) === "edit" && inside ? "accept-edits" : "bypass";
  return [
    `${call.name} needs approval (${reason}) and exec cannot ask.`,
    `To allow it: run with --permission-mode ${mode},`,
    `add permissions.allow = [${JSON.stringify(rule)}] to your config,`,
    `or pass --allow ${shellQuote(rule)}.`,
  ].join(" ");
}

function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

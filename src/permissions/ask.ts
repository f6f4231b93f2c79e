// What an `ask` offers and what exec says when it cannot ask. The agent puts each ask on the
// bus (`agent/ask`) with the rule "allow for this session" would add (`sessionGrantRule`);
// `codewhale exec` answers every ask with a denial whose reason says exactly how to allow the
// call next time (mode, config rule, or flag): `execDenialMessage`.
import { relative } from "node:path";
import { wholeCommand } from "./bash-rules.ts";
import type { PermissionCall, PermissionContext } from "./evaluate.ts";
import { protectedEdit } from "./evaluate.ts";
import { withResolved } from "./file-boundary.ts";
import { escapeSpecifier } from "./rule-specifier.ts";
import { commandOf, hostOf, pathOf } from "./tool-kinds.ts";

/** A call awaiting an answer: the effective arguments, plus who rewrote them and why. */
export interface AskCall extends PermissionCall {
  callId?: string;
  rewrittenBy?: string;
  rewriteReason?: string;
  /** Who asked: an ask rule, the mode, a hook or a plugin (the `ask` decision's `by`, `rule`). */
  askedBy?: { by: string; rule?: string };
}

/**
 * The narrowest rule that allows this exact call and nothing else: `bash(npm test)`,
 * `edit(src/a.ts)`, `web_fetch(domain:docs.python.org)`. The command or path is escaped (rule-specifier.ts), so a `*` or `?` in it
 * is literal, and the rule read back allows only the call: the command as a whole or as one
 * simple command word by word, the path as written.
 */
export function suggestRule(call: PermissionCall, ctx: PermissionContext): string {
  const command = commandOf(call.name, call.arguments);
  if (command !== undefined) return `${call.name}(${escapeSpecifier(wholeCommand(command))})`;
  const host = hostOf(call.name, call.arguments);
  if (host !== undefined) return `${call.name}(domain:${host})`;
  const path = pathOf(call.name, call.arguments, ctx.cwd, ctx.home);
  if (path === undefined) return call.name;
  return `${call.name}(${rulePath(path, ctx)})`;
}

/**
 * Workspace-relative inside the workspace (`./` first when it would otherwise read as a name
 * at any depth or as `~/`), `~/…` under the home, else absolute; escaped.
 */
function rulePath(path: string, ctx: PermissionContext): string {
  const inWorkspace = relative(ctx.workspaceRoot, path);
  if (inWorkspace !== "" && !inWorkspace.startsWith("..") && !inWorkspace.startsWith("/")) {
    const plain = inWorkspace.includes("/") && !inWorkspace.startsWith("~");
    return `${plain ? "" : "./"}${escapeSpecifier(inWorkspace)}`;
  }
  const inHome = relative(ctx.home, path);
  if (inHome !== "" && !inHome.startsWith("..") && !inHome.startsWith("/")) {
    return `~/${escapeSpecifier(inHome)}`;
  }
  return escapeSpecifier(path);
}

/**
 * The rule that "allow for this session" adds for an asked call, or undefined when no allow
 * rule would stop it asking: an ask rule, a hook or a plugin asked (they win over allow rules),
 * or the call edits a protected file (protected.ts asks whatever the rules say).
 */
export function sessionGrantRule(call: AskCall, ctx: PermissionContext): string | undefined {
  const by = call.askedBy?.by;
  if (by === "rule" || by === "hook" || by === "plugin") return undefined;
  if (editsProtected(call, ctx)) return undefined;
  return suggestRule(call, ctx);
}

/** Whether the call edits a protected file (protected.ts): it asks in every mode but bypass. */
export function editsProtected(call: AskCall, ctx: PermissionContext): boolean {
  if (call.tool.kind !== "edit") return false;
  const path = pathOf(call.name, call.arguments, ctx.cwd, ctx.home);
  return path !== undefined && protectedEdit({ paths: withResolved(path) }, ctx) !== undefined;
}

/**
 * Exec's reason for denying an `ask`: what would allow the call, and only what would. A
 * protected file (protected.ts) asks whatever the rules say, so only bypass is offered.
 */
export function execDenialMessage(call: AskCall, reason: string, ctx: PermissionContext) {
  const needs = `${call.name} needs approval (${reason}) and exec cannot ask.`;
  const asker = call.askedBy;
  if (asker?.by === "rule") {
    return `${needs} The ask rule "${asker.rule}" applies in every mode and over allow rules: to run it from exec, remove that rule from your config.`;
  }
  if (asker?.by === "hook" || asker?.by === "plugin") {
    const who = asker.rule ? `${asker.by} "${asker.rule}"` : asker.by;
    return `${needs} The ${who} asked, and no mode or allow rule overrides that.`;
  }
  // accept-edits runs only the edits whose file codewhale knows (evaluate.ts).
  const edits =
    call.tool.kind === "edit" && pathOf(call.name, call.arguments, ctx.cwd, ctx.home) !== undefined;
  if (editsProtected(call, ctx)) {
    return `${needs} To allow it: run with --permission-mode bypass (allow rules and accept-edits do not apply to protected files).`;
  }
  const rule = suggestRule(call, ctx);
  const mode = edits ? "accept-edits" : "bypass";
  return [
    needs,
    `To allow it: run with --permission-mode ${mode},`,
    `add permissions.allow = [${JSON.stringify(rule)}] to your config,`,
    `or pass --allow ${shellQuote(rule)}.`,
  ].join(" ");
}

function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

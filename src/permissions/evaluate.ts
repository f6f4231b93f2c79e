// Decides one tool call from the permission policy: deny rules, then the file tools' boundary,
// then plan mode, then protected files, then ask and allow rules, then the mode. Pure apart
// from looking at the touched path (symlinks, link count, git directories). The agent calls it
// with the effective (possibly rewritten) call; the read gate asks `readBlocker`.
import type { PermissionMode } from "../config/index.ts";
import { hostAllowed } from "../runner/index.ts";
import type { JsonValue } from "../session/events.ts";
import { allowedParts, commandRestricted, uncheckedReason, wholeCommand } from "./bash-rules.ts";
import { outsideBecause, realOr, withResolved } from "./file-boundary.ts";
import type { ProtectionContext } from "./protected.ts";
import { protectedBecause } from "./protected.ts";
import type { PathBases, PermissionRule } from "./rules.ts";
import { matchesPath } from "./rules.ts";
import type { ToolTraits } from "./tool-kinds.ts";
import { commandOf, hostOf, pathOf, restrictionCovers, ruleCovers } from "./tool-kinds.ts";

export interface PermissionPolicy {
  mode: PermissionMode;
  allow: readonly PermissionRule[];
  ask: readonly PermissionRule[];
  deny: readonly PermissionRule[];
}

export interface PermissionContext extends ProtectionContext {
  /** The project root (or the cwd without a project): path rules are relative to it. */
  workspaceRoot: string;
  /** Relative path arguments resolve against this; the file tools work only inside it. */
  cwd: string;
  home: string;
  /** The session's spill directory, which read, grep and ls may read. */
  spillDir?: string;
}

export interface PermissionCall {
  name: string;
  arguments: JsonValue;
  tool: ToolTraits;
}

export interface PermissionDecision {
  outcome: "allow" | "deny" | "ask";
  by: "rule" | "mode";
  /** The rule text, or the mode's name. */
  rule: string;
  reason?: string;
}

/** What a call exposes to rules: its command parts, the paths it touches, or the host it fetches from. */
interface Subject {
  command?: string;
  paths: string[];
  host?: string;
}

export function evaluatePermission(
  call: PermissionCall,
  policy: PermissionPolicy,
  ctx: PermissionContext,
): PermissionDecision {
  const subject = subjectOf(call, ctx);
  const bases = baseVariants(ctx);
  const denied = policy.deny.find((rule) => restricts(rule, call.name, subject, bases));
  if (denied) return byRule("deny", denied, `denied by the rule "${denied.text}"`);
  const edits = subject.command === undefined && call.tool.kind === "edit";
  if (subject.paths.length > 0) {
    const outside = outsideBecause(call.name, subject.paths, edits, ctx);
    if (outside) return { outcome: "deny", by: "mode", rule: policy.mode, reason: outside };
  }
  if (policy.mode === "plan" && !call.tool.readOnly) {
    const reason = `plan mode: only read-only tools run, and ${call.name} is not read-only`;
    return { outcome: "deny", by: "mode", rule: "plan", reason };
  }
  const guarded =
    edits && policy.mode !== "bypass" ? protectedEdit(subject, ctx, bases) : undefined;
  if (guarded) return { outcome: "ask", by: "mode", rule: policy.mode, reason: guarded };
  const asked = policy.ask.find((rule) => restricts(rule, call.name, subject, bases));
  if (asked) return byRule("ask", asked, `the rule "${asked.text}" asks first`);
  const unchecked =
    subject.command === undefined
      ? undefined
      : uncheckedReason([...policy.deny, ...policy.ask], subject.command);
  if (unchecked) {
    const reason = `the rule "${unchecked.rule.text}" cannot be checked: ${unchecked.reason}`;
    return byRule("ask", unchecked.rule, reason);
  }
  const allowed = policy.allow.find((rule) => permits(rule, call.name, subject, bases));
  if (allowed) return byRule("allow", allowed);
  const partRules =
    subject.command === undefined ? undefined : allowedParts(policy.allow, subject.command);
  if (partRules) return { outcome: "allow", by: "rule", rule: partRules.join(" + ") };
  return byMode(call, policy.mode, subject);
}

function byRule(
  outcome: PermissionDecision["outcome"],
  rule: PermissionRule,
  reason?: string,
): PermissionDecision {
  return { outcome, by: "rule", rule: rule.text, ...(reason ? { reason } : {}) };
}

/**
 * What the mode says when no rule decided. accept-edits runs an edit only when codewhale knows
 * the file it writes (a built-in's path argument), so the workspace and protected-file checks
 * above have seen it: a tool of kind `edit` from another source (an external tool, an MCP
 * server) whose paths codewhale cannot read asks, as Claude Code's acceptEdits does for them.
 */
function byMode(call: PermissionCall, mode: PermissionMode, subject: Subject): PermissionDecision {
  if (mode === "bypass") return { outcome: "allow", by: "mode", rule: mode };
  const kind = call.tool.kind;
  // Reading the web sends the URL (and what the model put in it) off the machine: every mode
  // but bypass asks, read-only or not, as Claude Code does for WebFetch (docs/permissions.md).
  if (kind === "fetch") {
    const reason = `${mode} mode asks first: ${call.name} fetches from the network`;
    return { outcome: "ask", by: "mode", rule: mode, reason };
  }
  if (call.tool.readOnly) return { outcome: "allow", by: "mode", rule: mode };
  if (mode === "accept-edits" && kind === "edit" && subject.paths.length > 0) {
    return { outcome: "allow", by: "mode", rule: mode };
  }
  if (mode === "accept-edits" && kind === "edit") {
    const reason = `accept-edits mode asks first: ${call.name} edits files codewhale cannot see, so it cannot check them against the workspace and protected files`;
    return { outcome: "ask", by: "mode", rule: mode, reason };
  }
  const action = kind === "edit" ? "edits files" : kind === "execute" ? "runs commands" : "";
  const what = action ? `${call.name} ${action}` : `${call.name} is not read-only`;
  return { outcome: "ask", by: "mode", rule: mode, reason: `${mode} mode asks first: ${what}` };
}

/**
 * Deny and ask rules: a match on any part or any path is enough. The parts include every
 * substituted command and, when the split is uncertain, every stretch between quotes.
 */
function restricts(rule: PermissionRule, tool: string, subject: Subject, bases: PathBases[]) {
  if (!restrictionCovers(rule.tool, tool)) return false;
  if (rule.matcher.kind === "any") return true;
  if (subject.command !== undefined) return commandRestricted(rule.matcher, subject.command);
  const { matcher } = rule;
  if (matcher.kind === "domain") return hostMatches(matcher.host, subject);
  if (matcher.kind !== "path") return false;
  return subject.paths.some((path) => bases.some((b) => matchesPath(matcher.pattern, path, b)));
}

/** Allow rules: the whole command exactly as written, or every path (lexical and resolved). */
function permits(rule: PermissionRule, tool: string, subject: Subject, bases: PathBases[]) {
  if (!ruleCovers(rule.tool, tool)) return false;
  if (rule.matcher.kind === "any") return true;
  if (subject.command !== undefined) {
    return rule.matcher.kind === "exact" && wholeCommand(subject.command) === rule.matcher.command;
  }
  const { matcher } = rule;
  if (matcher.kind === "domain") return hostMatches(matcher.host, subject);
  if (matcher.kind !== "path" || subject.paths.length === 0) return false;
  return subject.paths.every((path) => bases.some((b) => matchesPath(matcher.pattern, path, b)));
}

/** A domain rule's host (`a.com`, `*.a.com`) against the call's host, as the sandbox list matches. */
function hostMatches(ruleHost: string, subject: Subject): boolean {
  return subject.host !== undefined && hostAllowed([ruleHost], subject.host);
}

function subjectOf(call: PermissionCall, ctx: PermissionContext): Subject {
  const command = commandOf(call.name, call.arguments);
  if (command !== undefined) return { command, paths: [] };
  const host = hostOf(call.name, call.arguments);
  if (host !== undefined) return { paths: [], host };
  const path = pathOf(call.name, call.arguments, ctx.cwd, ctx.home);
  return { paths: path === undefined ? [] : withResolved(path) };
}

/** The workspace and home as given and, when symlinks lead elsewhere, as resolved. */
function baseVariants(ctx: PermissionContext): PathBases[] {
  const given = { workspace: ctx.workspaceRoot, home: ctx.home };
  const resolved = { workspace: realOr(ctx.workspaceRoot), home: realOr(ctx.home) };
  const same = resolved.workspace === given.workspace && resolved.home === given.home;
  return same ? [given] : [given, resolved];
}

/**
 * Why editing the call's path asks in every mode but bypass (a protected file), or undefined.
 * Exec's advice (ask.ts) asks the same question.
 */
export function protectedEdit(
  subject: { paths: readonly string[] },
  ctx: PermissionContext,
  bases: readonly PathBases[] = baseVariants(ctx),
): string | undefined {
  const because = protectedBecause(subject.paths, bases, ctx);
  if (!because) return undefined;
  return `${because}; editing it asks in every mode but bypass, whatever the allow rules say`;
}

/**
 * For the read gate: a function naming the deny or ask rule that keeps `tool` from reading
 * the absolute path `absolute`, or undefined. The bases are resolved once, since a search asks
 * for every file it finds. `resolved` is where the path really leads when the caller knows it
 * (a walk that follows no symlink: the path itself; the tool's own resolution), so it is not
 * resolved again.
 */
export function readBlocker(
  policy: PermissionPolicy,
  ctx: PermissionContext,
): (tool: string, absolute: string, resolved?: string) => PermissionRule | undefined {
  const bases = baseVariants(ctx);
  return (tool, absolute, resolved) => {
    const subject = { paths: withResolved(absolute, resolved) };
    const covers = (rule: PermissionRule) => restricts(rule, tool, subject, bases);
    return policy.deny.find(covers) ?? policy.ask.find(covers);
  };
}

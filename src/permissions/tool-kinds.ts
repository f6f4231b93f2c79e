// How the permission layer sees a tool: the kind the tool declares (`Tool.kind`, one field
// for permissions, presentation and ACP; `edit` changes files, `execute` runs commands) and
// which argument a rule's specifier is matched against. The one table mapping tool names to
// rule subjects lives here; evaluate.ts and the rule parser read it, nothing else hard-codes names.
import { isAbsolute, join, resolve } from "node:path";
import type { JsonValue, ToolKind } from "../session/events.ts";

export type { ToolKind };

/** What the permission layer needs to know about a tool besides its name. */
export interface ToolTraits {
  /** True when the tool never changes anything outside the session (the tool's `readOnly`). */
  readOnly: boolean;
  /** The tool's declared kind (`Tool.kind`). */
  kind: ToolKind;
}

/** What a rule's specifier is matched against for one tool: `domain` is a URL's host. */
type SubjectKind = "command" | "path" | "domain";

interface ToolRuleEntry {
  subject: SubjectKind;
  /** Argument names holding the subject, first present wins. */
  keys: readonly string[];
}

/** The built-in tools whose rules take a specifier, and which argument it matches. */
const RULE_TABLE: Readonly<Record<string, ToolRuleEntry>> = {
  bash: { subject: "command", keys: ["command"] },
  read: { subject: "path", keys: ["path", "file_path"] },
  write: { subject: "path", keys: ["path", "file_path"] },
  edit: { subject: "path", keys: ["path", "file_path"] },
  ls: { subject: "path", keys: ["path"] },
  glob: { subject: "path", keys: ["path"] },
  grep: { subject: "path", keys: ["path"] },
  web_fetch: { subject: "domain", keys: ["url"] },
};

/**
 * Tools a rule for `ruleTool` also covers: `edit(...)` covers write (as Claude Code's do), and
 * `read(...)` covers the tools that read files (ls, glob, grep).
 */
const RULE_COVERS: Readonly<Record<string, readonly string[]>> = {
  edit: ["edit", "write"],
  read: ["read", "ls", "glob", "grep"],
};

/**
 * Deny and ask rules reach further: `edit` reads the file it changes (its old_string is a test
 * of the content and it shows the changed lines), so a `read(...)` deny or ask rule covers it.
 */
const RESTRICTION_COVERS: Readonly<Record<string, readonly string[]>> = {
  ...RULE_COVERS,
  read: [...(RULE_COVERS.read ?? []), "edit"],
};

/** The built-in tools, whose names rules compare without case (`Bash(…)` from Claude Code). */
const BUILTIN_NAMES = new Set([
  ...Object.keys(RULE_TABLE),
  "todo_write",
  "bash_output",
  "bash_kill",
]);

/** Claude Code's names for our built-ins, lower-cased: `WebFetch(domain:…)` is web_fetch's rule. */
const CLAUDE_NAMES: Readonly<Record<string, string>> = { webfetch: "web_fetch" };

/**
 * The tool a rule names: a built-in's name lower-cased (Claude Code's `WebFetch` is
 * `web_fetch`), an MCP rule's `mcp__` prefix too, and every other name as written, since other
 * tools' names (an MCP server's, an external tool's) are compared exactly: `mcp__docs__*` is
 * not server `DOCS`.
 */
export function ruleToolName(written: string): string {
  const lower = written.toLowerCase();
  if (BUILTIN_NAMES.has(lower)) return lower;
  const alias = CLAUDE_NAMES[lower];
  if (alias) return alias;
  return lower.startsWith("mcp__") ? `mcp__${written.slice("mcp__".length)}` : written;
}

/** The subject kind of a tool's rules, or undefined when its rules take no specifier. */
export function ruleSubjectKind(tool: string): SubjectKind | undefined {
  return RULE_TABLE[tool]?.subject;
}

/** True when a rule written for `ruleTool` applies to a call of `callTool`. */
export function ruleCovers(ruleTool: string, callTool: string): boolean {
  return (
    mcpRuleCovers(ruleTool, callTool) ?? (RULE_COVERS[ruleTool] ?? [ruleTool]).includes(callTool)
  );
}

/** True when a deny or ask rule written for `ruleTool` applies to a call of `callTool`. */
export function restrictionCovers(ruleTool: string, callTool: string): boolean {
  return (
    mcpRuleCovers(ruleTool, callTool) ??
    (RESTRICTION_COVERS[ruleTool] ?? [ruleTool]).includes(callTool)
  );
}

/**
 * Rules for MCP tools (Claude Code's forms): `mcp__server__tool` names one tool, and
 * `mcp__server__*` or `mcp__server` every tool of one server; server and tool names compared
 * exactly, case included. Undefined for a rule that is not about an MCP tool.
 */
function mcpRuleCovers(ruleTool: string, callTool: string): boolean | undefined {
  if (!ruleTool.startsWith("mcp__")) return undefined;
  const call = callTool;
  if (ruleTool.endsWith("__*")) return call.startsWith(ruleTool.slice(0, -1));
  const server = ruleTool.slice("mcp__".length);
  if (!server.includes("__")) return call.startsWith(`${ruleTool}__`);
  return call === ruleTool;
}

/** The command of a bash-like call, or undefined. */
export function commandOf(tool: string, args: JsonValue): string | undefined {
  const entry = RULE_TABLE[tool];
  if (entry?.subject !== "command") return undefined;
  return firstString(args, entry.keys);
}

/**
 * The host a fetching call's URL names (lower-case, without IPv6 brackets or a final dot), or
 * undefined for other tools and for a URL that does not parse.
 */
export function hostOf(tool: string, args: JsonValue): string | undefined {
  const entry = RULE_TABLE[tool];
  if (entry?.subject !== "domain") return undefined;
  const value = firstString(args, entry.keys);
  if (value === undefined || !URL.canParse(value)) return undefined;
  return normalHost(new URL(value).hostname);
}

/** A host as rules and the sandbox's list compare it: `[::1]` is `::1`, `a.com.` is `a.com`. */
export function normalHost(host: string): string {
  const bare = host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
  return bare.toLowerCase().replace(/\.$/, "");
}

/**
 * The absolute path a file tool's call touches, or undefined for tools without one. Search
 * tools without a `path` search the cwd; a glob whose pattern is absolute (or `~/`) searches
 * the pattern's fixed leading directories.
 */
export function pathOf(
  tool: string,
  args: JsonValue,
  cwd: string,
  home: string,
): string | undefined {
  const entry = RULE_TABLE[tool];
  if (entry?.subject !== "path") return undefined;
  const value = firstString(args, entry.keys);
  if (value !== undefined) return absolutePath(value, cwd, home);
  if (tool === "glob") {
    const pattern = firstString(args, ["pattern"]);
    if (pattern && (isAbsolute(pattern) || pattern.startsWith("~/"))) {
      return absolutePath(staticPrefix(pattern), cwd, home);
    }
  }
  return tool === "ls" || tool === "glob" || tool === "grep" ? resolve(cwd) : undefined;
}

/** `~/x` is under the home directory; relative paths resolve against `base`. */
export function absolutePath(path: string, base: string, home: string): string {
  if (path === "~") return home;
  if (path.startsWith("~/")) return join(home, path.slice(2));
  return resolve(base, path);
}

/** The directories of a glob before its first wildcard: `/etc/*.conf` → `/etc`. */
function staticPrefix(pattern: string): string {
  const parts = pattern.split("/");
  const fixed: string[] = [];
  for (const part of parts) {
    if (/[*?[{]/.test(part)) break;
    fixed.push(part);
  }
  return fixed.join("/") || "/";
}

function firstString(args: JsonValue, keys: readonly string[]): string | undefined {
  if (typeof args !== "object" || args === null || Array.isArray(args)) return undefined;
  for (const key of keys) {
    const value = args[key];
    if (typeof value === "string") return value;
  }
  return undefined;
}

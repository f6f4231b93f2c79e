// Permission rules as users write them, in Claude Code's style: `bash` (any call),
// `bash(npm test)` (exact), `bash(git status:*)` (prefix), `bash(npm run *)` (wildcard),
// `edit(src/**)`, `read(~/.ssh/**)` (gitignore-style globs). Parsing and matching one rule
// against one subject live here; evaluate.ts decides what a set of matches means.
import { ruleSubjectKind } from "./tool-kinds.ts";

export type PathPattern =
  /** Matched against the absolute path; `base` is "workspace", "home" or "root". */
  | { kind: "anchored"; base: "workspace" | "home" | "root"; glob: string }
  /** No slash: matches a file or directory of that name at any depth, as in gitignore. */
  | { kind: "name"; glob: string };

export type RuleMatcher =
  | { kind: "any" }
  | { kind: "exact"; command: string }
  | { kind: "prefix"; prefix: string }
  | { kind: "wildcard"; pattern: RegExp }
  | { kind: "path"; pattern: PathPattern };

export interface PermissionRule {
  /** The rule as written, for decisions and messages. */
  text: string;
  /** The tool it names, lower-cased (`Bash(…)` is `bash`). */
  tool: string;
  matcher: RuleMatcher;
}

export type ParsedRule = { ok: true; rule: PermissionRule } | { ok: false; message: string };

const RULE_SHAPE = /^([A-Za-z0-9_-]+\*?)(?:\((.*)\))?$/s;
/** The one wildcard a tool name may hold: every tool of one MCP server, `mcp__server__*`. */
const MCP_SERVER_WILDCARD = /^mcp__[a-z0-9-]+(?:_[a-z0-9-]+)*__\*$/;

export function parseRule(text: string): ParsedRule {
  const match = RULE_SHAPE.exec(text.trim());
  if (!match) return fail(text, 'expected "tool" or "tool(specifier)", e.g. "bash(npm test)"');
  const tool = (match[1] ?? "").toLowerCase();
  if (tool.endsWith("*") && !MCP_SERVER_WILDCARD.test(tool)) {
    return fail(text, '"*" is allowed only as every tool of an MCP server, "mcp__server__*"');
  }
  const specifier = match[2];
  if (specifier === undefined) return { ok: true, rule: { text, tool, matcher: { kind: "any" } } };
  if (specifier.trim() === "") return fail(text, `empty specifier; write just "${tool}"`);
  const subject = ruleSubjectKind(tool);
  if (subject === undefined) return fail(text, `"${tool}" rules take no specifier`);
  const matcher = subject === "command" ? commandMatcher(specifier) : pathMatcher(specifier);
  if (typeof matcher === "string") return fail(text, matcher);
  return { ok: true, rule: { text, tool, matcher } };
}

function fail(text: string, message: string): ParsedRule {
  return { ok: false, message: `malformed permission rule "${text}": ${message}` };
}

/** `cmd:*` is a prefix, `*` elsewhere a wildcard, else an exact command. */
function commandMatcher(specifier: string): RuleMatcher | string {
  const spec = normalizeCommand(specifier);
  const colonStar = spec.indexOf(":*");
  if (colonStar !== -1 && colonStar !== spec.length - 2) return '":*" is allowed only at the end';
  if (colonStar !== -1) {
    const prefix = spec.slice(0, -2).trim();
    return prefix === "" ? 'nothing before ":*"' : { kind: "prefix", prefix };
  }
  if (!spec.includes("*")) return { kind: "exact", command: spec };
  const source = spec.split("*").map(escapeRegExp).join(".*");
  return { kind: "wildcard", pattern: new RegExp(`^${source}$`, "s") };
}

function pathMatcher(specifier: string): RuleMatcher {
  return { kind: "path", pattern: parsePathPattern(specifier) };
}

/** A path specifier as rules write it (`src/**`, `.env`, `~/x`, `/etc/**`), parsed. */
export function parsePathPattern(specifier: string): PathPattern {
  let glob = specifier.trim();
  if (glob.endsWith("/")) glob = `${glob}**`;
  if (glob.startsWith("~/")) return anchored("home", glob.slice(2));
  if (glob === "~") return anchored("home", "");
  if (glob.startsWith("//")) return anchored("root", glob.slice(2));
  if (glob.startsWith("/")) return anchored("root", glob.slice(1));
  if (glob.startsWith("./")) return anchored("workspace", glob.slice(2));
  if (glob.includes("/")) return anchored("workspace", glob);
  return { kind: "name", glob };
}

function anchored(base: "workspace" | "home" | "root", glob: string): PathPattern {
  return { kind: "anchored", base, glob };
}

/** Collapses whitespace runs so `git  status` and `git status` compare equal. */
export function normalizeCommand(command: string): string {
  return command.trim().replace(/\s+/g, " ");
}

/** Matches one simple command (a part of a compound command) against a command matcher. */
export function matchesCommand(matcher: RuleMatcher, part: string): boolean {
  const command = normalizeCommand(part);
  switch (matcher.kind) {
    case "any":
      return true;
    case "exact":
      return command === matcher.command;
    case "prefix":
      return command === matcher.prefix || command.startsWith(`${matcher.prefix} `);
    case "wildcard":
      return matcher.pattern.test(command);
    case "path":
      return false;
  }
}

export interface PathBases {
  workspace: string;
  home: string;
}

/** Matches an absolute path: the pattern itself, or anything under what it names. */
export function matchesPath(pattern: PathPattern, absolute: string, bases: PathBases): boolean {
  if (pattern.kind === "name") {
    return compiled(pattern.glob, () => `(?:^|/)${globToRegExp(pattern.glob)}(?:/.*)?$`).test(
      absolute,
    );
  }
  const base = pattern.base === "root" ? "" : bases[pattern.base].replace(/\/+$/, "");
  const full = pattern.glob === "" ? base : `${base}/${pattern.glob}`;
  return compiled(`\0${full}`, () => `^${globToRegExp(full)}(?:/.*)?$`).test(absolute);
}

/** Compiled path patterns: a search checks every file it finds against each rule. */
const COMPILED = new Map<string, RegExp>();
const MAX_COMPILED = 1000;

function compiled(key: string, source: () => string): RegExp {
  let regex = COMPILED.get(key);
  if (regex) return regex;
  if (COMPILED.size >= MAX_COMPILED) COMPILED.clear();
  regex = new RegExp(source(), "s");
  COMPILED.set(key, regex);
  return regex;
}

/** gitignore-style: `**` spans directories, `*` and `?` stay within one. */
export function globToRegExp(glob: string): string {
  let out = "";
  for (let i = 0; i < glob.length; i++) {
    const char = glob[i] ?? "";
    if (glob.startsWith("**/", i)) {
      out += "(?:.*/)?";
      i += 2;
    } else if (glob.startsWith("/**", i) && i + 3 === glob.length) {
      out += "(?:/.*)?";
      i += 2;
    } else if (glob.startsWith("**", i)) {
      out += ".*";
      i += 1;
    } else if (char === "*") out += "[^/]*";
    else if (char === "?") out += "[^/]";
    else out += escapeRegExp(char);
  }
  return out;
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}

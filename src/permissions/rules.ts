// Permission rules as users write them, in Claude Code's style: `bash` (any call),
// `bash(npm test)` (exact), `bash(git status:*)` (prefix), `bash(npm run *)` (wildcard),
// `edit(src/**)`, `read(~/.ssh/**)` (gitignore-style globs), `web_fetch(domain:docs.python.org)`
// or `web_fetch(domain:*.python.org)` (a URL's host); `\*` is a literal star
// (rule-specifier.ts). Parsing and matching one rule against one subject live here;
// evaluate.ts decides what a set of matches means.
import type { SpecifierChar } from "./rule-specifier.ts";
import { escapeGlob, specifierChars, unescaped } from "./rule-specifier.ts";
import { normalHost, ruleSubjectKind, ruleToolName } from "./tool-kinds.ts";

export type PathPattern =
  /** Matched against the absolute path; `base` is "workspace", "home" or "root". */
  | { kind: "anchored"; base: "workspace" | "home" | "root"; glob: string }
  /** No slash: matches a file or directory of that name at any depth, as in gitignore. */
  | { kind: "name"; glob: string };

export type RuleMatcher =
  | { kind: "any" }
  /** The command as the rule writes it, escapes removed; allow rules compare it word by word. */
  | { kind: "exact"; command: string }
  | { kind: "prefix"; prefix: string }
  /** `lead`: the literal text before the first wildcard, runs of whitespace as one space. */
  | { kind: "wildcard"; pattern: RegExp; lead: string }
  | { kind: "path"; pattern: PathPattern }
  /** A URL's host: exact, or `*.a.com` for any name under a.com (the sandbox list's matcher). */
  | { kind: "domain"; host: string };

export interface PermissionRule {
  /** The rule as written, for decisions and messages. */
  text: string;
  /** The tool it names: a built-in's lower-cased (`Bash(…)` is `bash`), any other's as written. */
  tool: string;
  matcher: RuleMatcher;
}

export type ParsedRule = { ok: true; rule: PermissionRule } | { ok: false; message: string };

const RULE_SHAPE = /^([A-Za-z0-9_-]+\*?)(?:\((.*)\))?$/s;
/** The one wildcard a tool name may hold: every tool of one MCP server, `mcp__server__*`. */
const MCP_SERVER_WILDCARD = /^mcp__[A-Za-z0-9-]+(?:_[A-Za-z0-9-]+)*__\*$/;

export function parseRule(text: string): ParsedRule {
  const match = RULE_SHAPE.exec(text.trim());
  if (!match) return fail(text, 'expected "tool" or "tool(specifier)", e.g. "bash(npm test)"');
  const tool = ruleToolName(match[1] ?? "");
  if (tool.endsWith("*") && !MCP_SERVER_WILDCARD.test(tool)) {
    return fail(text, '"*" is allowed only as every tool of an MCP server, "mcp__server__*"');
  }
  const specifier = match[2];
  if (specifier === undefined) return { ok: true, rule: { text, tool, matcher: { kind: "any" } } };
  if (specifierChars(specifier).length === 0) {
    return fail(text, `empty specifier; write just "${tool}"`);
  }
  const subject = ruleSubjectKind(tool);
  if (subject === undefined) return fail(text, `"${tool}" rules take no specifier`);
  const matcher =
    subject === "command"
      ? commandMatcher(specifier)
      : subject === "domain"
        ? domainMatcher(specifier)
        : pathMatcher(specifier);
  if (typeof matcher === "string") return fail(text, matcher);
  return { ok: true, rule: { text, tool, matcher } };
}

function fail(text: string, message: string): ParsedRule {
  return { ok: false, message: `malformed permission rule "${text}": ${message}` };
}

/** `cmd:*` is a prefix, an unescaped `*` elsewhere a wildcard, else an exact command. */
function commandMatcher(specifier: string): RuleMatcher | string {
  const chars = specifierChars(specifier);
  const star = (at: SpecifierChar | undefined) => at?.char === "*" && !at.escaped;
  const colonStar = chars.findIndex(
    (at, i) => at.char === ":" && !at.escaped && star(chars[i + 1]),
  );
  if (colonStar !== -1 && colonStar !== chars.length - 2) return '":*" is allowed only at the end';
  if (colonStar !== -1) {
    const prefix = normalizeCommand(unescaped(chars.slice(0, -2)));
    return prefix === "" ? 'nothing before ":*"' : { kind: "prefix", prefix };
  }
  const first = chars.findIndex(star);
  if (first === -1) return { kind: "exact", command: unescaped(chars) };
  const segments: string[] = [""];
  for (const at of chars) {
    if (star(at)) segments.push("");
    else segments[segments.length - 1] += at.char;
  }
  const source = segments.map((segment) => escapeRegExp(collapse(segment))).join(".*");
  const lead = collapse(unescaped(chars.slice(0, first))).trimStart();
  return { kind: "wildcard", pattern: new RegExp(`^${source}$`, "s"), lead };
}

/** A host name, `*.` and a name, or an IP address (IPv6 with or without brackets). */
const DOMAIN_SHAPE = /^(?:\*\.)?[a-z0-9_-]+(?:\.[a-z0-9_-]+)*$|^[0-9a-f:.]+$/;

/** `domain:HOST`, `domain:*.HOST`: the host lower-cased, brackets and a final dot removed. */
function domainMatcher(specifier: string): RuleMatcher | string {
  const text = unescaped(specifierChars(specifier));
  if (!text.startsWith("domain:")) return 'expected "domain:HOST", e.g. "domain:docs.python.org"';
  const host = normalHost(text.slice("domain:".length).trim());
  if (!DOMAIN_SHAPE.test(host)) return `"${host}" is not a host name, "*.name" or an IP address`;
  return { kind: "domain", host };
}

function pathMatcher(specifier: string): RuleMatcher {
  return { kind: "path", pattern: parsePathPattern(specifier) };
}

/**
 * A path specifier as rules write it (`src/**`, `.env`, `~/x`, `/etc/**`), parsed; the glob
 * keeps the escapes (`\*`), which globToRegExp reads as literal characters.
 */
export function parsePathPattern(specifier: string): PathPattern {
  const chars = specifierChars(specifier);
  const starts = (text: string) =>
    [...text].every((char, at) => chars[at]?.char === char && !chars[at]?.escaped);
  const last = chars.at(-1);
  const directory = last?.char === "/" && !last.escaped ? "**" : "";
  const tail = (from: number) => asGlob(chars.slice(from)) + directory;
  const glob = tail(0);
  if (starts("~/")) return anchored("home", tail(2));
  if (starts("~") && chars.length === 1) return anchored("home", "");
  if (starts("//")) return anchored("root", tail(2));
  if (starts("/")) return anchored("root", tail(1));
  if (starts("./")) return anchored("workspace", tail(2));
  if (chars.some((at) => at.char === "/")) return anchored("workspace", glob);
  return { kind: "name", glob };
}

/** Characters back into glob text: an escaped character keeps its backslash. */
function asGlob(chars: readonly SpecifierChar[]): string {
  return chars.map((at) => (at.escaped ? `\\${at.char}` : at.char)).join("");
}

function collapse(text: string): string {
  return text.replace(/\s+/g, " ");
}

function anchored(base: "workspace" | "home" | "root", glob: string): PathPattern {
  return { kind: "anchored", base, glob };
}

/** Collapses whitespace runs so `git  status` and `git status` compare equal. */
export function normalizeCommand(command: string): string {
  return command.trim().replace(/\s+/g, " ");
}

/**
 * Matches one form of a simple command against a command matcher, runs of whitespace as one
 * space: how deny and ask rules, and prefix and wildcard allow rules, match. An exact allow
 * rule compares words instead (bash-rules.ts).
 */
export function matchesCommand(matcher: RuleMatcher, part: string): boolean {
  const command = normalizeCommand(part);
  switch (matcher.kind) {
    case "any":
      return true;
    case "exact":
      return command === normalizeCommand(matcher.command);
    case "prefix":
      return command === matcher.prefix || command.startsWith(`${matcher.prefix} `);
    case "wildcard":
      return matcher.pattern.test(command);
    case "path":
    case "domain":
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
  const base = pattern.base === "root" ? "" : escapeGlob(bases[pattern.base].replace(/\/+$/, ""));
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

/** gitignore-style: `**` spans directories, `*` and `?` stay within one; `\*` is a star. */
export function globToRegExp(glob: string): string {
  let out = "";
  for (let i = 0; i < glob.length; i++) {
    const char = glob[i] ?? "";
    if (char === "\\" && i + 1 < glob.length) {
      out += escapeRegExp(glob[i + 1] ?? "");
      i += 1;
    } else if (glob.startsWith("**/", i)) {
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

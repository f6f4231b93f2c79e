// How bash rules meet a parsed command (bash-split.ts): the forms deny and ask rules see, the
// deny rule a command may match but cannot be checked against (its command name is computed at
// run time, or the parse is uncertain), and which allow rules cover every part. evaluate.ts
// calls these; `needsBashParser` tells the agent's seam when to load the parser first.
import type { SimpleCommand, SplitCommand } from "./bash-split.ts";
import { bashParserLoaded, splitCommand } from "./bash-split.ts";
import type { PermissionRule, RuleMatcher } from "./rules.ts";
import { matchesCommand, normalizeCommand } from "./rules.ts";
import { ruleCovers } from "./tool-kinds.ts";

type Argv = SimpleCommand["argv"];

/** Stands for a word bash computes at run time in the argv forms rules are matched against. */
const COMPUTED = "\u0000";

/** True when a bash rule with a specifier may be evaluated for this tool under this policy. */
export function needsBashParser(
  tool: string,
  policy: {
    allow: readonly PermissionRule[];
    ask: readonly PermissionRule[];
    deny: readonly PermissionRule[];
  },
): boolean {
  const covers = (rule: PermissionRule) => ruleCovers(rule.tool, tool) && hasSpecifier(rule);
  return policy.allow.some(covers) || policy.ask.some(covers) || policy.deny.some(covers);
}

/** Deny and ask rules: any form of any part (substituted ones included) matching is enough. */
export function commandRestricted(matcher: RuleMatcher, command: string): boolean {
  return restrictedForms(command).some((candidate) => matchesCommand(matcher, candidate));
}

/**
 * The command and every form of its parts, worked out once per split: each deny and ask rule
 * is checked against the same command, and splitCommand hands back the same split for it.
 */
const FORMS = new WeakMap<SplitCommand, string[]>();

function restrictedForms(command: string): string[] {
  const split = splitCommand(command);
  let forms = FORMS.get(split);
  if (!forms) {
    forms = [command, ...split.commands.flatMap(ruleViews)];
    FORMS.set(split, forms);
  }
  return forms;
}

/**
 * Why a deny or ask rule cannot be checked against the command although it may match: the
 * command cannot be read with confidence, or a part's name (or a word the rule names) is
 * computed at run time. Undefined when every rule can be checked.
 */
export function uncheckedReason(
  rules: readonly PermissionRule[],
  command: string,
): { rule: PermissionRule; reason: string } | undefined {
  const checked = rules.filter((rule) => ruleCovers(rule.tool, "bash") && hasSpecifier(rule));
  if (checked.length === 0) return undefined;
  const split = splitCommand(command);
  const first = checked[0];
  if (split.uncertain && first) {
    return { rule: first, reason: "the command cannot be read with confidence" };
  }
  for (const part of split.commands) {
    for (const form of argvForms(part)) {
      const rule = checked.find((candidate) => mayMatch(candidate, form));
      if (rule) {
        return { rule, reason: `bash computes a word of "${part.text}" only when it runs` };
      }
    }
  }
  return undefined;
}

/**
 * The allow rules that cover every simple command in the command, substituted ones included,
 * or undefined. A part that writes a file needs an exact rule; a part whose command name bash
 * computes at run time, or a command that cannot be read with confidence, allows nothing.
 */
export function allowedParts(
  allow: readonly PermissionRule[],
  command: string,
): string[] | undefined {
  const bashRules = allow.filter((rule) => ruleCovers(rule.tool, "bash"));
  if (bashRules.length === 0) return undefined;
  const split = splitCommand(command);
  if (split.uncertain || split.commands.length === 0) return undefined;
  const used = new Set<string>();
  for (const part of split.commands) {
    if (part.argv.length > 0 && part.argv[0] === undefined) return undefined;
    const rule = bashRules.find((candidate) => {
      const { matcher } = candidate;
      if (matcher.kind === "exact") return sameWords(ruleWords(matcher.command), part.words);
      return !part.writes && matchesCommand(matcher, part.text);
    });
    if (!rule) return undefined;
    used.add(rule.text);
  }
  return [...used];
}

/**
 * The words of an exact rule's command, read by the same parser as the command: undefined
 * (the rule allows no part, only the whole command as written) unless it is one simple command
 * read with confidence. Cached: every call checks every allow rule.
 */
const RULE_WORDS = new Map<string, string[] | undefined>();

function ruleWords(command: string): string[] | undefined {
  if (RULE_WORDS.has(command)) return RULE_WORDS.get(command);
  const split = splitCommand(command);
  const only = split.commands.length === 1 ? split.commands[0] : undefined;
  const words = split.uncertain || !only ? undefined : only.words;
  if (!bashParserLoaded()) return words;
  if (RULE_WORDS.size >= 1000) RULE_WORDS.clear();
  RULE_WORDS.set(command, words);
  return words;
}

function sameWords(rule: readonly string[] | undefined, part: readonly string[]): boolean {
  return rule !== undefined && rule.length === part.length && rule.every((w, at) => w === part[at]);
}

/**
 * The exact command an allow rule must equal as a whole (`permits` in evaluate.ts, for a
 * compound or uncertain command): as given, without the whitespace around it that bash
 * ignores; never with runs of whitespace collapsed, since a newline separates commands.
 */
export function wholeCommand(command: string): string {
  const start = command.trimStart();
  const trimmed = start.trimEnd();
  return trimmed.endsWith("\\") ? start : trimmed;
}

/**
 * The forms of a simple command deny and ask rules match: as written, bare (substitutions cut
 * out), each with what precedes the command name dropped and then unquoted, and its argv as
 * bash runs it (`r\⏎m`, `$'\x72m'` are `rm`), also with a path's directory dropped (`/bin/rm`).
 */
export function ruleViews(command: SimpleCommand): string[] {
  const views = [command.text, command.bare];
  const named = views.map(withoutLeadIn);
  const argv = argvForms(command).map((form) => form.map((word) => word ?? COMPUTED).join(" "));
  return [...new Set([...views, ...named, ...named.map(unquoted), ...argv])].filter(Boolean);
}

/** Programs that run a command given by later words, after options of their own. */
const WRAPPERS = new Set([
  ...["sudo", "doas", "env", "xargs", "timeout", "nice", "nohup", "stdbuf", "setsid", "time"],
  ...["command", "builtin", "exec", "chrt", "ionice", "taskset", "flock", "watch", "strace"],
]);

/**
 * The argv as bash runs it, with a path's directory dropped from the name (`/bin/rm` → `rm`),
 * and after a wrapper every suffix that starts at a later word, since its options may take
 * values: `sudo -u root rm x` holds `rm x`.
 */
function argvForms(command: SimpleCommand): Argv[] {
  const forms: Argv[] = [];
  const add = (argv: Argv) => {
    const name = argv[0];
    forms.push(argv);
    if (name?.includes("/")) forms.push([name.slice(name.lastIndexOf("/") + 1), ...argv.slice(1)]);
  };
  if (command.argv.length === 0) return forms;
  add(command.argv);
  const base = forms.at(-1)?.[0];
  if (base !== undefined && WRAPPERS.has(base)) {
    for (let at = 1; at < command.argv.length; at++) add(command.argv.slice(at));
  }
  return forms;
}

/**
 * True when the words bash knows before running agree with the rule's leading literal words up
 * to the first computed word, which could then be what the rule names (or nothing at all).
 */
function mayMatch(rule: PermissionRule, form: Argv): boolean {
  const computed = form.indexOf(undefined);
  if (computed === -1) return false;
  const lead = literalWords(rule);
  for (let at = 0; at < Math.min(computed, lead.length); at++) {
    const want = lead[at] ?? "";
    const word = form[at] ?? "";
    const partial = at === lead.length - 1 && rule.matcher.kind === "wildcard";
    if (partial ? !word.startsWith(want) : word !== want) return false;
  }
  return true;
}

/** The rule's specifier up to its first `*`, as words: `bash(git push:*)` → ["git", "push"]. */
function literalWords(rule: PermissionRule): string[] {
  const { matcher } = rule;
  const spec =
    matcher.kind === "prefix"
      ? matcher.prefix
      : matcher.kind === "exact"
        ? normalizeCommand(matcher.command)
        : matcher.kind === "wildcard"
          ? matcher.lead
          : "";
  return spec.split(" ").filter(Boolean);
}

function hasSpecifier(rule: PermissionRule): boolean {
  return rule.matcher.kind !== "any" && rule.matcher.kind !== "path";
}

const WORD = /(?:'[^']*'|"[^"]*"|[^\s'"])*/.source;
const ASSIGNMENT = `[A-Za-z_][A-Za-z0-9_]*\\+?=${WORD}`;
const REDIRECTION = `(?:\\d*|&)(?:<<?<?|>>?|[<>][&|])\\s*${WORD}`;
const RESERVED = /!|\{|then|else|elif|do|if|while|until|coproc|time(?:\s+-p)?/.source;
const LEAD_IN = new RegExp(`^(?:${ASSIGNMENT}|${REDIRECTION}|${RESERVED})(?:\\s+|$)`);

/** Leading `NAME=value` assignments, redirections and reserved words dropped. */
export function withoutLeadIn(part: string): string {
  let rest = part.trim();
  for (let previous = ""; previous !== rest; ) {
    previous = rest;
    rest = rest.replace(LEAD_IN, "");
  }
  return rest;
}

/** Quote characters and backslashes removed, as bash's quote removal leaves the words. */
function unquoted(part: string): string {
  return part.replace(/\\(.)/gs, "$1").replace(/["']/g, "");
}

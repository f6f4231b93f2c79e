// Splits a bash command into the simple commands permission rules are matched against: parts
// separated by `&&`, `||`, `;`, `|`, `&`, newlines and subshells, and every command bash
// substitutes (`$(…)`, backticks, `<(…)`, `>(…)`) wherever it substitutes it, quoted or not
// (bash-scan.ts reads it). A command it cannot read with confidence is flagged, so allow
// rules refuse it. Here-documents are not read.
import { Scanner } from "./bash-scan.ts";

export interface SimpleCommand {
  /** The command as written, substitutions left in place: `echo "$(date)"`. */
  text: string;
  /** The same with each substitution cut out, for deny rules: `rm$(true) x` → `rm x`. */
  bare: string;
  /** True when an unquoted `>` redirects its output to a file (`2>&1` and `>(…)` do not). */
  writes: boolean;
}

export interface SplitCommand {
  /** Each simple command, then the commands substituted into it, recursively; no empty ones. */
  commands: SimpleCommand[];
  /**
   * True when quotes, parentheses or braces do not balance (or nest absurdly deep), so the
   * commands are a guess. They then also include every piece between quotes, parentheses,
   * braces, backticks and separators, so deny rules see all there is to see.
   */
  uncertain: boolean;
}

export function splitCommand(command: string): SplitCommand {
  const { commands, uncertain } = new Scanner(command).read();
  if (uncertain) commands.push(...pieces(command));
  return { commands, uncertain };
}

/** Every stretch between quotes, brackets, backticks and separators, for deny rules only. */
function pieces(command: string): SimpleCommand[] {
  return command
    .split(/[;&|\n()`"'{}]/)
    .map((piece) => piece.trim())
    .filter(Boolean)
    .map((text) => ({ text, bare: text, writes: true }));
}

/**
 * The forms of a simple command deny and ask rules match: as written, and bare (substitutions
 * cut out), each also with what may precede the command name dropped, and then unquoted; so
 * `bash(rm:*)` sees `rm x` in `X=1 rm x`, `2>/dev/null rm x`, `{ rm x`, `then rm x`, `\rm x`.
 */
export function ruleViews(command: SimpleCommand): string[] {
  const views = [command.text, command.bare];
  const named = views.map(withoutLeadIn);
  return [...new Set([...views, ...named, ...named.map(unquoted)])];
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

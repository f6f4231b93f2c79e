// The hand-written bash splitter that bash rules used before the real parser (see the RFC
// "Bash rules read commands with tree-sitter-bash"). Kept only as the baseline for
// bench/bash-parse.ts; nothing in src/ imports it. It reads commands as bash-scan.ts walks them,
// and flags what it cannot read with confidence.
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

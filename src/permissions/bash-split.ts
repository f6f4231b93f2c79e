// Splits a bash command into the simple commands permission rules are matched against, read
// with a real bash parser (tree-sitter-bash, bash-parser.ts): every command in lists, pipes,
// subshells, compound commands and functions, every command bash substitutes (`$(…)`, backticks,
// `<(…)`, `>(…)`, in quotes, `${…}` and arithmetic too), and the scripts `eval`, `trap` and
// `sh -c` run. A command it cannot read with confidence is flagged, so allow rules refuse it.
import { bashParserLoaded, parseBash } from "./bash-parser.ts";
import { collectVerbatim } from "./bash-tree.ts";
import { Walker } from "./bash-walker.ts";

export { bashParserLoaded, loadBashParser } from "./bash-parser.ts";

export interface SimpleCommand {
  /** The command as written, its redirections and substitutions left in place: `echo "$(date)"`. */
  text: string;
  /** The same with each substitution cut out, for deny rules: `rm$(true) x` → `rm x`. */
  bare: string;
  /**
   * Its words as written, redirections and assignments included, quotes and whitespace inside
   * a word kept: `git  push >"a  b"` → ["git", "push", '>"a  b"']. Exact allow rules compare these.
   */
  words: string[];
  /** True when it redirects output to a file (`2>&1` and `>(…)` do not). */
  writes: boolean;
  /**
   * The words bash runs after quote removal: `$'\x72m' x` → ["rm", "x"]; a word bash computes
   * at run time (an expansion, a glob, a brace) is undefined; [] for a line of assignments.
   */
  argv: Array<string | undefined>;
}

export interface SplitCommand {
  /** Each simple command, then the commands substituted into it, recursively; no empty ones. */
  commands: SimpleCommand[];
  /**
   * True when the parser reports an error, or the command holds what is not read here (a
   * here-document, code `eval` or `trap` builds at run time, absurd nesting). The commands
   * then also include every piece between quotes, brackets and separators, for deny rules.
   */
  uncertain: boolean;
}

/** Deeper nesting of `eval`/`sh -c` scripts than this is not read. */
const MAX_SCRIPT_DEPTH = 8;

let last: { command: string; split: SplitCommand } | undefined;

export function splitCommand(command: string): SplitCommand {
  if (last?.command === command) return last.split;
  const split = splitScript(command, 0);
  // Not before the parser loads: that answer (uncertain) is not the parser's.
  if (bashParserLoaded()) last = { command, split };
  return split;
}

function splitScript(command: string, scriptDepth: number): SplitCommand {
  if (!bashParserLoaded() || scriptDepth > MAX_SCRIPT_DEPTH) {
    return { commands: pieces(command), uncertain: true };
  }
  const joined = withoutContinuations(command);
  const walker = new Walker(scriptDepth, splitScript);
  if (joined === undefined) walker.uncertain = true;
  const tree = parseBash(joined ?? command);
  try {
    walker.visit(tree.rootNode, 0, false);
  } finally {
    tree.delete();
  }
  const { commands, uncertain } = walker;
  if (uncertain) commands.push(...pieces(command), ...(joined ? pieces(joined) : []));
  return { commands, uncertain };
}

/**
 * The command with bash's line continuations (`\` then a newline, outside quotes bash keeps
 * verbatim) removed, as bash removes them before it splits words: `r\⏎m` is `rm`. Undefined
 * when removing them does not settle.
 */
function withoutContinuations(command: string): string | undefined {
  let text = command;
  for (let round = 0; round < 3; round++) {
    if (!text.includes("\\\n")) return text;
    const tree = parseBash(text);
    const verbatim: Array<[number, number]> = [];
    collectVerbatim(tree.rootNode, verbatim);
    tree.delete();
    const next = text.replace(/\\+\n/g, (run, at: number) => {
      const end = at + run.length - 1;
      const kept = verbatim.some(([start, stop]) => end > start && end <= stop);
      return (run.length - 1) % 2 === 0 || kept ? run : run.slice(0, -2);
    });
    if (next === text) return text;
    text = next;
  }
  return undefined;
}

/** Every stretch between quotes, brackets, backticks and separators, for deny rules only. */
function pieces(command: string): SimpleCommand[] {
  return command
    .split(/[;&|\n()`"'{}]/)
    .map((piece) => piece.trim())
    .filter(Boolean)
    .map((text) => ({ text, bare: text, words: [text], writes: true, argv: [undefined] }));
}

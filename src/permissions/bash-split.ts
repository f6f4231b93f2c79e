// Splits a bash command into the simple commands permission rules are matched against, read
// with a real bash parser (tree-sitter-bash, bash-parser.ts): every command in lists, pipes,
// subshells, compound commands and functions, every command bash substitutes (`$(…)`, backticks,
// `<(…)`, `>(…)`, in quotes, `${…}` and arithmetic too), and the scripts `eval`, `trap` and
// `sh -c` run. A command it cannot read with confidence is flagged, so allow rules refuse it.
import type { Node } from "web-tree-sitter";
import { bashParserLoaded, parseBash } from "./bash-parser.ts";
import { wordValue } from "./bash-words.ts";

export { bashParserLoaded, loadBashParser } from "./bash-parser.ts";

export interface SimpleCommand {
  /** The command as written, its redirections and substitutions left in place: `echo "$(date)"`. */
  text: string;
  /** The same with each substitution cut out, for deny rules: `rm$(true) x` → `rm x`. */
  bare: string;
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

/** Deeper nesting (of nodes, or of `eval`/`sh -c` scripts) than this is not read. */
const MAX_DEPTH = 200;
const MAX_SCRIPT_DEPTH = 8;

let last: { command: string; split: SplitCommand } | undefined;

export function splitCommand(command: string): SplitCommand {
  if (last?.command === command) return last.split;
  const split = splitScript(command, 0);
  last = { command, split };
  return split;
}

function splitScript(command: string, scriptDepth: number): SplitCommand {
  if (!bashParserLoaded() || scriptDepth > MAX_SCRIPT_DEPTH) {
    return { commands: pieces(command), uncertain: true };
  }
  const joined = withoutContinuations(command);
  const walker = new Walker(scriptDepth);
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

/** Nodes bash never reads a line continuation in. */
const VERBATIM = new Set(["raw_string", "ansi_c_string", "comment", "heredoc_body"]);

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

/** Verbatim spans; a backtick body is raw text to bash until it is run, so none inside one. */
function collectVerbatim(node: Node, out: Array<[number, number]>): void {
  if (node.type === "command_substitution" && node.text.startsWith("`")) return;
  if (VERBATIM.has(node.type)) {
    out.push([node.startIndex, node.endIndex]);
    return;
  }
  for (const child of kids(node)) collectVerbatim(child, out);
}

function collect(node: Node, types: Set<string>, out: Array<[number, number]>): void {
  if (types.has(node.type)) {
    out.push([node.startIndex, node.endIndex]);
    return;
  }
  for (const child of kids(node)) collect(child, types, out);
}

/**
 * Reserved words: a command "named" one is the grammar misreading a compound command
 * (`! { a; }`, `time if …`), so the parse is not trusted.
 */
const RESERVED = new Set([
  "!",
  "{",
  "}",
  "if",
  "then",
  "else",
  "elif",
  "fi",
  "do",
  "done",
  "while",
  "until",
  "for",
  "case",
  "esac",
  "in",
  "select",
  "function",
  "coproc",
  "[[",
  "]]",
]);

/** Builtins and wrappers that run the command named by a later word. */
const RUNS_NEXT = new Set(["command", "builtin", "exec", "time", "nohup", "env", "nice", "sudo"]);
/** Programs that run their `-c` argument as a script. */
const SHELLS = new Set(["bash", "sh", "dash", "zsh", "ksh", "mksh", "busybox"]);
/** Builtins that read a variable name or an arithmetic expression: `a[$(x)]` runs `x` there. */
const EVALUATES = new Set([
  "let",
  "declare",
  "typeset",
  "local",
  "readonly",
  "export",
  "printf",
  "read",
  "unset",
  "test",
  "[",
  "mapfile",
  "readarray",
  "wait",
  "source",
  ".",
]);

class Walker {
  readonly commands: SimpleCommand[] = [];
  uncertain = false;
  private readonly scriptDepth: number;
  /** Commands that end a list the grammar hung redirections on: where those end, if they write. */
  private readonly trailing = new Map<
    number,
    { end: number; writes: boolean; redirects: Node[] }
  >();

  constructor(scriptDepth: number) {
    this.scriptDepth = scriptDepth;
  }

  visit(node: Node, depth: number, redirected: boolean): void {
    if (depth > MAX_DEPTH) {
      this.uncertain = true;
      return;
    }
    if (node.isError || node.isMissing) this.uncertain = true;
    let writes = redirected;
    switch (node.type) {
      case "command":
      case "declaration_command":
      case "unset_command":
        this.simple(node, redirected);
        break;
      case "variable_assignment":
      case "variable_assignments":
        if (!isPartOfCommand(node)) this.assignments(node, redirected);
        break;
      case "redirected_statement": {
        const body = node.childForFieldName("body");
        const writesAll = kids(node).some(isWritingRedirect);
        if (!body) this.assignments(node, redirected || writesAll);
        else if (body.type === "list" || body.type === "pipeline") {
          // The grammar hangs `a && b > f` as `(a && b) > f`; bash redirects only `b`.
          const tail = lastCommand(body);
          const redirects = kids(node).filter((child) => child.type === "file_redirect");
          if (tail)
            this.trailing.set(tail.id, { end: node.endIndex, writes: writesAll, redirects });
        } else if (body.type !== "command") writes = redirected || writesAll;
        break;
      }
      case "heredoc_redirect":
        // Here-documents are not read.
        this.uncertain = true;
        break;
      case "arithmetic_expansion":
      case "test_command":
      case "subscript":
      case "c_style_for_statement":
        // bash evaluates variables' text as arithmetic here: `a[$(x)]` in it runs `x`.
        if (evaluatesRunTimeText(node)) this.uncertain = true;
        break;
      case "compound_statement":
        if (node.text.startsWith("((") && evaluatesRunTimeText(node)) this.uncertain = true;
        break;
      case "raw_string":
        this.quotedInExpansion(node);
        break;
      case "word":
        this.unparsedCode(node);
        break;
      case "command_substitution":
        if (node.text.startsWith("`") && node.text.includes("\\")) {
          this.backtick(node);
          return;
        }
        break;
    }
    for (const child of kids(node)) this.visit(child, depth + 1, writes);
  }

  /** A simple command: its text, bare form, argv and writes, then what it runs in turn. */
  private simple(node: Node, redirected: boolean): void {
    const parent = node.parent;
    const body = parent?.type === "redirected_statement" && parent.childForFieldName("body");
    const whole = body && body.id === node.id ? parent : node;
    const tail = this.trailing.get(node.id);
    const outer = whole === node ? (tail?.redirects ?? []) : kids(whole);
    const redirects = [...kids(node), ...outer];
    const argv = argvOf(node, outer);
    if (RESERVED.has(argv[0] ?? "")) this.uncertain = true;
    const source = node.tree.rootNode.text;
    const text = tail ? source.slice(node.startIndex, tail.end).trim() : whole.text.trim();
    const bare = tail ? text.replace(/\s+/g, " ") : bareText(whole);
    const writes = redirected || redirects.some(isWritingRedirect) || tail?.writes === true;
    this.commands.push({ text, bare, writes, argv });
    this.runsInTurn(node, argv, writes, outer);
  }

  private assignments(node: Node, writes: boolean): void {
    const text = node.text.trim();
    if (text !== "") this.commands.push({ text, bare: bareText(node), writes, argv: [] });
  }

  /** What `eval`, `trap`, `sh -c`, `command`, `exec`, `env`… run, as commands of their own. */
  private runsInTurn(
    node: Node,
    argv: Array<string | undefined>,
    writes: boolean,
    redirects: readonly Node[],
  ): void {
    const name = argv[0];
    if (name === undefined) return;
    const base = name.slice(name.lastIndexOf("/") + 1);
    if (name === "eval") this.script(argv.slice(1), true);
    else if (name === "trap") this.script(argv.slice(1, 2), true);
    else if (SHELLS.has(base)) this.shellScript(argv);
    else if (RUNS_NEXT.has(base)) this.wrapped(node, argv, writes, redirects);
    if (name === "let" || (EVALUATES.has(name) && hidesCode(node.tree.rootNode))) {
      this.uncertain = true;
    }
  }

  /** Reads words bash runs as a script; one it computes at run time cannot be read. */
  private script(words: Array<string | undefined>, joined: boolean): void {
    if (words.some((word) => word === undefined)) {
      this.uncertain = true;
      return;
    }
    const text = joined ? words.join(" ") : (words[0] ?? "");
    if (text.trim() === "") return;
    const inner = splitScript(text, this.scriptDepth + 1);
    const wrapper = text.startsWith(": ") ? text : undefined;
    this.commands.push(...inner.commands.filter((part) => part.text !== wrapper));
    if (inner.uncertain) this.uncertain = true;
  }

  /** `bash -c 'script'`, `sh -ec 'script'`: the script after the options. */
  private shellScript(argv: Array<string | undefined>): void {
    const flag = argv.findIndex((word, at) => at > 0 && word !== undefined && /^-\w*c/.test(word));
    if (flag === -1) return;
    this.script(argv.slice(flag + 1, flag + 2), false);
  }

  /** The command a wrapper runs: from the first word that is not an option or assignment. */
  private wrapped(
    node: Node,
    argv: Array<string | undefined>,
    writes: boolean,
    redirects: readonly Node[],
  ): void {
    const words = argWords(node, redirects);
    const at = argv.findIndex(
      (word, index) => index > 0 && !(word !== undefined && /^(?:-|[A-Za-z_]\w*=|\d)/.test(word)),
    );
    const first = words[at];
    if (at === -1 || !first) return;
    const end = Math.max(node.endIndex, ...words.map((word) => word.endIndex));
    const source = node.tree.rootNode.text;
    const text = source.slice(first.startIndex, end).trim();
    const inner = argv.slice(at);
    if (RESERVED.has(inner[0] ?? "")) this.uncertain = true;
    this.commands.push({ text, bare: text, writes, argv: inner });
    this.runsInTurn(node, inner, writes, redirects);
  }

  /**
   * A word holding `$(`, a backtick or `<(` that the grammar left unparsed (it does so in the
   * operand of `${x:-…}`): its text is read again, in the quoting it sits in.
   */
  private unparsedCode(node: Node): void {
    const text = node.text;
    // An unquoted word never holds a newline; the grammar glues `⏎\x` to a word that way.
    if (text.includes("\n")) this.uncertain = true;
    if (!/\$\(|`|[<>]\(|\$\{/.test(text.replace(/\\./gs, "E"))) return;
    const quoted = hasAncestor(node, "string");
    if (quoted && text.includes('"')) this.uncertain = true;
    else this.script([quoted ? `: "${text}"` : `: ${text}`], false);
  }

  /** A backtick body holding escapes: bash unescapes `\\`, `\``, `\$` (and `\"` in quotes) first. */
  private backtick(node: Node): void {
    const body = node.text.slice(1, node.text.endsWith("`") ? -1 : undefined);
    const quoted = hasAncestor(node, "string");
    const unescaped = body.replace(quoted ? /\\([\\`$"])/g : /\\([\\`$])/g, "$1");
    this.script([unescaped], false);
  }

  /**
   * `'…'` inside `${…}` inside double quotes is not a quote to bash: `"${x:-'$(cmd)'}"` runs
   * `cmd`. Its text is read again as double-quoted text.
   */
  private quotedInExpansion(node: Node): void {
    let inExpansion = false;
    for (let up = node.parent; up; up = up.parent) {
      if (up.type === "expansion") inExpansion = true;
      else if (up.type === "string" && inExpansion) {
        const body = node.text.slice(1, -1);
        if (body.includes('"')) this.uncertain = true;
        else this.script([`: "${body}"`], false);
        return;
      } else if (up.type === "command_substitution" || up.type === "command") return;
    }
  }
}

/** Node types that hold text bash reads at run time in an arithmetic context. */
const RUN_TIME = new Set([
  "variable_name",
  "simple_expansion",
  "expansion",
  "command_substitution",
]);

/**
 * True when an arithmetic context may evaluate text the command does not show: it names a
 * variable or expansion, or the line hides `$(…)` in quotes (`x='a[$(cmd)]'; echo $((x))`).
 */
function evaluatesRunTimeText(node: Node): boolean {
  return hidesCode(node.tree.rootNode) || hasDescendant(node, RUN_TIME);
}

/** Quoted or escaped text holding `$(` or a backtick, which an evaluation would run. */
function hidesCode(root: Node): boolean {
  const quoted: Array<[number, number]> = [];
  collect(root, new Set(["raw_string", "ansi_c_string", "string_content", "word"]), quoted);
  const text = root.text;
  return quoted.some(([start, end]) => /\$\(|`|\\/.test(text.slice(start, end)));
}

/** The simple command a list or pipeline ends with (through nested lists and redirections). */
function lastCommand(node: Node): Node | undefined {
  let at: Node | undefined = node;
  while (at && at.type !== "command") {
    if (at.type === "redirected_statement") at = at.childForFieldName("body") ?? undefined;
    else if (at.type === "list" || at.type === "pipeline") at = kids(at).at(-1);
    else return undefined;
  }
  return at;
}

function hasAncestor(node: Node, type: string): boolean {
  for (let up = node.parent; up; up = up.parent) if (up.type === type) return true;
  return false;
}

function hasDescendant(node: Node, types: Set<string>): boolean {
  return kids(node).some((child) => types.has(child.type) || hasDescendant(child, types));
}

/** The argv of a command node (words after quote removal); assignments and redirects skipped. */
function argvOf(node: Node, redirects: readonly Node[]): Array<string | undefined> {
  return argWords(node, redirects).map((word) => (isWordLike(word) ? wordValue(word) : undefined));
}

/**
 * The nodes that are words of the command: its name, arguments, a declaration's operands. The
 * grammar reads `cmd 2>/dev/null a b` as one redirection to `/dev/null a b`; bash passes `a b`
 * to `cmd`, so a redirection's destinations after the first are arguments too.
 */
function argWords(node: Node, redirects: readonly Node[] = []): Node[] {
  const words: Node[] = [];
  kids(node).forEach((child, index) => {
    const field = node.fieldNameForChild(index);
    if (child.type === "file_redirect") words.push(...extraDestinations(child));
    else if (node.type === "command") {
      if (field === "name" || field === "argument") words.push(child);
    } else if (child.type !== "herestring_redirect") words.push(child);
  });
  for (const redirect of redirects) words.push(...extraDestinations(redirect));
  return words;
}

function extraDestinations(redirect: Node): Node[] {
  if (redirect.type !== "file_redirect") return [];
  return redirect
    .childrenForFieldName("destination")
    .slice(1)
    .filter((n): n is Node => !!n);
}

function isWordLike(node: Node): boolean {
  if (node.type === "variable_assignment") return false;
  return node.childCount === 0 || !/_redirect$/.test(node.type);
}

/** Whether a node is a redirection that writes a file: `>`, `>>`, `>|`, `&>`, `<>`, `>&file`. */
function isWritingRedirect(node: Node): boolean {
  if (node.type !== "file_redirect") return false;
  const operator = kids(node).find((child) => /^[<>&]/.test(child.type) && child.childCount === 0);
  const op = operator?.type ?? "";
  if (op === "<" || op === "<&" || op === "<&-" || op === ">&-") return false;
  if (op === ">&" || op === "<&") {
    const target = node.childForFieldName("destination")?.text ?? "";
    return !/^(?:\d+|-)$/.test(target);
  }
  return true;
}

/** True for an assignment that belongs to a command (`X=1 cmd`, `export X=1`). */
function isPartOfCommand(node: Node): boolean {
  const parent = node.parent?.type ?? "";
  return (
    parent === "command" || parent === "declaration_command" || parent === "variable_assignments"
  );
}

/** A node's text without the substitutions in it, whitespace collapsed. */
function bareText(node: Node): string {
  const spans: Array<[number, number]> = [];
  collect(node, new Set(["command_substitution", "process_substitution"]), spans);
  const offset = node.startIndex;
  let out = "";
  let at = 0;
  const text = node.text;
  for (const [start, end] of spans) {
    out += text.slice(at, Math.max(at, start - offset));
    at = Math.max(at, end - offset);
  }
  return (out + text.slice(at)).trim().replace(/\s+/g, " ");
}

function kids(node: Node): Node[] {
  return node.children.filter((child): child is Node => child !== null);
}

/** Every stretch between quotes, brackets, backticks and separators, for deny rules only. */
function pieces(command: string): SimpleCommand[] {
  return command
    .split(/[;&|\n()`"'{}]/)
    .map((piece) => piece.trim())
    .filter(Boolean)
    .map((text) => ({ text, bare: text, writes: true, argv: [undefined] }));
}

// Walks one parsed bash script (bash-split.ts parses it) and collects its simple commands:
// text, bare text, writes and argv, what `eval`, `trap`, `sh -c` and wrappers run, and where
// the grammar's reading cannot be trusted (uncertain). Nested scripts go back to bash-split.ts
// through the `readScript` callback.
import type { Node } from "web-tree-sitter";
import type { SimpleCommand, SplitCommand } from "./bash-split.ts";
import {
  argvOf,
  argWords,
  bareText,
  evaluatesRunTimeText,
  hasAncestor,
  hidesCode,
  isPartOfCommand,
  isWritingRedirect,
  lastCommand,
} from "./bash-tree.ts";
import { kids } from "./bash-words.ts";

/** Deeper nesting of nodes than this is not read. */
const MAX_DEPTH = 200;

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

export class Walker {
  readonly commands: SimpleCommand[] = [];
  uncertain = false;
  private readonly scriptDepth: number;
  private readonly readScript: (text: string, depth: number) => SplitCommand;
  /** Commands that end a list the grammar hung redirections on: where those end, if they write. */
  private readonly trailing = new Map<
    number,
    { end: number; writes: boolean; redirects: Node[] }
  >();

  constructor(scriptDepth: number, readScript: (text: string, depth: number) => SplitCommand) {
    this.scriptDepth = scriptDepth;
    this.readScript = readScript;
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
        else if (["list", "pipeline", "negated_command"].includes(body.type)) {
          // The grammar hangs `a && b > f` as `(a && b) > f`; bash redirects only `b`.
          const tail = lastCommand(body);
          const redirects = kids(node).filter((child) => child.type === "file_redirect");
          if (tail) {
            this.trailing.set(tail.id, { end: node.endIndex, writes: writesAll, redirects });
          } else writes = redirected || writesAll;
        } else if (body.type !== "command") writes = redirected || writesAll;
        break;
      }
      case "function_definition":
        // `f() { ls; } > out` redirects every run of `f`: its commands write.
        writes = redirected || kids(node).some(isWritingRedirect);
        break;
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
        // bash reads `$((…))` as arithmetic when it closes with `))`; the grammar may not.
        if (/^\$\(\([\s\S]*\)\)$/.test(node.text)) this.uncertain = true;
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
    const words = [...kids(node), ...outer.filter((child) => child.id !== node.id)];
    this.commands.push({ text, bare, words: words.map((word) => word.text), writes, argv });
    this.runsInTurn(node, argv, writes, outer);
  }

  private assignments(node: Node, writes: boolean): void {
    const text = node.text.trim();
    if (text === "") return;
    this.commands.push({ text, bare: bareText(node), words: [text], writes, argv: [] });
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
    const inner = this.readScript(text, this.scriptDepth + 1);
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
    const written = words.slice(at).map((word) => word.text);
    this.commands.push({ text, bare: text, words: written, writes, argv: inner });
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

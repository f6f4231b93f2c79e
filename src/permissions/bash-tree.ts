// Helpers over the tree-sitter-bash syntax tree for bash-walker.ts and bash-split.ts: spans of
// node types, the words and redirections of a command, the grammar's redirection quirks, and
// whether arithmetic may evaluate text the command does not show.
import type { Node } from "web-tree-sitter";
import { kids, wordValue } from "./bash-words.ts";

/** Nodes bash never reads a line continuation in. */
const VERBATIM = new Set(["raw_string", "ansi_c_string", "comment", "heredoc_body"]);

/** Verbatim spans; a backtick body is raw text to bash until it is run, so none inside one. */
export function collectVerbatim(node: Node, out: Array<[number, number]>): void {
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
export function evaluatesRunTimeText(node: Node): boolean {
  return hidesCode(node.tree.rootNode) || hasDescendant(node, RUN_TIME);
}

/** Quoted or escaped text holding `$(` or a backtick, which an evaluation would run. */
export function hidesCode(root: Node): boolean {
  const quoted: Array<[number, number]> = [];
  collect(root, new Set(["raw_string", "ansi_c_string", "string_content", "word"]), quoted);
  const text = root.text;
  return quoted.some(([start, end]) => /\$\(|`|\\/.test(text.slice(start, end)));
}

/** The simple command a list or pipeline ends with (through nested lists and redirections). */
export function lastCommand(node: Node): Node | undefined {
  let at: Node | undefined = node;
  while (at && at.type !== "command") {
    if (at.type === "redirected_statement") at = at.childForFieldName("body") ?? undefined;
    else if (["list", "pipeline", "negated_command"].includes(at.type)) at = kids(at).at(-1);
    else return undefined;
  }
  return at;
}

export function hasAncestor(node: Node, type: string): boolean {
  for (let up = node.parent; up; up = up.parent) if (up.type === type) return true;
  return false;
}

function hasDescendant(node: Node, types: Set<string>): boolean {
  return kids(node).some((child) => types.has(child.type) || hasDescendant(child, types));
}

/** The argv of a command node (words after quote removal); assignments and redirects skipped. */
export function argvOf(node: Node, redirects: readonly Node[]): Array<string | undefined> {
  return argWords(node, redirects).map((word) => (isWordLike(word) ? wordValue(word) : undefined));
}

/**
 * The nodes that are words of the command: its name, arguments, a declaration's operands. The
 * grammar reads `cmd 2>/dev/null a b` as one redirection to `/dev/null a b`; bash passes `a b`
 * to `cmd`, so a redirection's destinations after the first are arguments too.
 */
export function argWords(node: Node, redirects: readonly Node[] = []): Node[] {
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

/**
 * Whether a node is a redirection that writes a file: `>`, `>>`, `>|`, `&>`, `<>`, `>&file`;
 * not one to `/dev/null`.
 */
export function isWritingRedirect(node: Node): boolean {
  if (node.type !== "file_redirect") return false;
  if (node.childrenForFieldName("destination")[0]?.text === "/dev/null") return false;
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
export function isPartOfCommand(node: Node): boolean {
  const parent = node.parent?.type ?? "";
  return (
    parent === "command" || parent === "declaration_command" || parent === "variable_assignments"
  );
}

/** A node's text without the substitutions in it, whitespace collapsed. */
export function bareText(node: Node): string {
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

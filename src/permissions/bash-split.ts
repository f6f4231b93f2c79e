// Splits a shell command into the simple commands a permission rule is matched against:
// `a && b`, `a || b`, `a; b`, `a | b`, `a & b`, newlines, subshells `( … )` and command
// substitutions `$( … )` / backticks all separate parts. Quotes are respected. Not a parser:
// anything it cannot read safely (an unclosed quote) is reported so allow rules refuse it.

export interface SplitCommand {
  /** The simple commands, trimmed, in order; empty parts dropped. */
  parts: string[];
  /** True when quoting was unbalanced, so the parts are a guess. */
  unbalanced: boolean;
}

/** Sequences that end one simple command and start the next, longest first. */
const SEPARATORS = ["&&", "||", "$(", "<(", ">(", ";", "|", "&", "\n", "(", ")", "`"];

export function splitCommand(command: string): SplitCommand {
  const parts: string[] = [];
  let current = "";
  let quote: "'" | '"' | undefined;
  for (let i = 0; i < command.length; i++) {
    const char = command[i] ?? "";
    if (quote) {
      current += char;
      if (char === "\\" && quote === '"') current += command[++i] ?? "";
      else if (char === quote) quote = undefined;
      continue;
    }
    if (char === "\\") {
      current += char + (command[++i] ?? "");
      continue;
    }
    if (char === "'" || char === '"') {
      quote = char;
      current += char;
      continue;
    }
    const separator = separatorAt(command, i, current);
    if (separator) {
      parts.push(current);
      current = "";
      i += separator.length - 1;
      continue;
    }
    current += char;
  }
  parts.push(current);
  return {
    parts: parts.map((part) => part.trim()).filter(Boolean),
    unbalanced: quote !== undefined,
  };
}

/** The separator starting at `i`, except `&` inside a redirection (`2>&1`, `&>`, `>&2`). */
function separatorAt(command: string, i: number, current: string): string | undefined {
  const found = SEPARATORS.find((candidate) => command.startsWith(candidate, i));
  if (found !== "&") return found;
  const previous = current.at(-1);
  const next = command[i + 1];
  if (previous === ">" || previous === "<" || next === ">") return undefined;
  return found;
}

/** True when an unquoted `>` redirects output in the simple command `part`. */
export function redirectsOutput(part: string): boolean {
  let quote: string | undefined;
  for (let i = 0; i < part.length; i++) {
    const char = part[i];
    if (quote) {
      if (char === quote) quote = undefined;
      continue;
    }
    if (char === "'" || char === '"') quote = char;
    else if (char === "\\") i++;
    else if (char === ">" && !isDescriptorDuplication(part, i)) return true;
  }
  return false;
}

/** `2>&1` and `>&2` duplicate descriptors; they write no file. */
function isDescriptorDuplication(part: string, i: number): boolean {
  return /^>&\d/.test(part.slice(i));
}

/** Leading `NAME=value` assignments dropped, for matching deny rules: `X=1 rm -rf /` → `rm -rf /`. */
export function withoutAssignments(part: string): string {
  return part.replace(/^(?:[A-Za-z_][A-Za-z0-9_]*=(?:'[^']*'|"[^"]*"|\S*)\s+)+/, "");
}

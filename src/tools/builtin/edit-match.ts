// The pure part of the edit tool: find every occurrence of old_string (trying CRLF line ends
// when the file uses them), replace, and say which lines changed; or explain why not.

export interface EditPlan {
  text: string;
  count: number;
  /** 1-based first line of each replacement in the new text, and its line count. */
  changed: { line: number; lines: number }[];
}

export type EditOutcome = { ok: true; plan: EditPlan } | { ok: false; reason: string };

export function planEdit(
  original: string,
  oldString: string,
  newString: string,
  replaceAll: boolean,
  display: string,
): EditOutcome {
  if (oldString === "") {
    return { ok: false, reason: "old_string is empty; use write to create or overwrite a file" };
  }
  if (oldString === newString) {
    return { ok: false, reason: "old_string and new_string are identical; nothing to change" };
  }
  let [search, replacement] = [oldString, newString];
  let positions = occurrences(original, search);
  if (positions.length === 0 && original.includes("\r\n") && !oldString.includes("\r\n")) {
    [search, replacement] = [toCrlf(oldString), toCrlf(newString)];
    positions = occurrences(original, search);
  }
  if (positions.length === 0) return { ok: false, reason: notFound(original, oldString, display) };
  if (positions.length > 1 && !replaceAll) {
    const lines = positions.slice(0, 10).map((at) => lineAt(original, at));
    return {
      ok: false,
      reason:
        `old_string occurs ${positions.length} times in ${display} (lines ${lines.join(", ")}); ` +
        "include more surrounding lines to make it unique, or set replace_all to true",
    };
  }
  return { ok: true, plan: apply(original, search, replacement, positions) };
}

function apply(
  original: string,
  search: string,
  replacement: string,
  positions: number[],
): EditPlan {
  const parts: string[] = [];
  const changed: EditPlan["changed"] = [];
  const grow = newlines(replacement) - newlines(search);
  let from = 0;
  positions.forEach((at, index) => {
    parts.push(original.slice(from, at), replacement);
    changed.push({ line: lineAt(original, at) + index * grow, lines: newlines(replacement) + 1 });
    from = at + search.length;
  });
  parts.push(original.slice(from));
  return { text: parts.join(""), count: positions.length, changed };
}

function occurrences(text: string, search: string): number[] {
  const found: number[] = [];
  for (let at = text.indexOf(search); at >= 0; at = text.indexOf(search, at + search.length)) {
    found.push(at);
  }
  return found;
}

function notFound(original: string, oldString: string, display: string): string {
  const base = `old_string was not found in ${display}`;
  const first = oldString
    .split("\n")
    .find((line) => line.trim() !== "")
    ?.trim();
  if (first) {
    const lines = original.split("\n");
    const index = lines.findIndex((line) => line.trim() === first || line.includes(first));
    if (index >= 0) {
      return `${base}. Its first line appears at line ${index + 1}, so the difference is in whitespace or a later line; read the file and copy the text exactly`;
    }
  }
  return `${base}; read the file and copy the text exactly, whitespace included`;
}

function lineAt(text: string, index: number): number {
  return newlines(text.slice(0, index)) + 1;
}

function newlines(text: string): number {
  let count = 0;
  for (let at = text.indexOf("\n"); at >= 0; at = text.indexOf("\n", at + 1)) count++;
  return count;
}

function toCrlf(text: string): string {
  return text.replace(/\r?\n/g, "\r\n");
}

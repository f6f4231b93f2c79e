// The escape of rule specifiers (`bash(…)`, `edit(…)`): a backslash makes the next character
// literal, so `\*` is a star and never a wildcard, `\\` a backslash, `\ ` a space that is not
// trimmed. rules.ts reads specifiers with `specifierChars`; ask.ts writes the rule "allow for
// this session" and "always allow" store with `escapeSpecifier`, which reads back as the text.

/** One character of a specifier, and whether a backslash made it literal. */
export interface SpecifierChar {
  char: string;
  escaped: boolean;
}

/** The characters a specifier stands for, without the unescaped whitespace at either end. */
export function specifierChars(specifier: string): SpecifierChar[] {
  const chars: SpecifierChar[] = [];
  let pending = false;
  for (const char of specifier) {
    if (pending) chars.push({ char, escaped: true });
    else if (char !== "\\") chars.push({ char, escaped: false });
    pending = !pending && char === "\\";
  }
  if (pending) chars.push({ char: "\\", escaped: false });
  const blank = (at: SpecifierChar | undefined) =>
    at !== undefined && !at.escaped && /\s/.test(at.char);
  while (blank(chars[0])) chars.shift();
  while (blank(chars.at(-1))) chars.pop();
  return chars;
}

/** The text the characters stand for, escapes removed. */
export function unescaped(chars: readonly SpecifierChar[]): string {
  return chars.map((at) => at.char).join("");
}

/**
 * A specifier that reads back (`specifierChars`) as exactly `text`: backslashes, `*` and `?`
 * escaped, and whitespace at either end, so nothing in it is a wildcard or trimmed.
 */
export function escapeSpecifier(text: string): string {
  const chars = [...text];
  const last = chars.length - 1;
  return chars
    .map((char, at) => {
      const outer = (at === 0 || at === last) && /\s/.test(char);
      return outer || char === "\\" || char === "*" || char === "?" ? `\\${char}` : char;
    })
    .join("");
}

/** A path as glob text that matches only itself (the workspace or home a rule is under). */
export function escapeGlob(path: string): string {
  return path.replace(/[\\*?]/g, "\\$&");
}

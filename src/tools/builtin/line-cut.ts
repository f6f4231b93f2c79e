// Cutting an over-long line at a token's end, so no readable prefix of a secret survives a cut
// (the output policy redacts only what it sees). Pure; used by read, edit and grep (through
// text-file.ts) and by the todo_write presenter, which must not pull in file access.

/** The line, or its first `max` characters (see tokenCut) and a note of how much was cut. */
export function cutLine(line: string, max: number): string {
  if (line.length <= max) return line;
  const keep = tokenCut(line, max, line[max]);
  return `${line.slice(0, keep)}… [${line.length - keep} more chars]`;
}

/** Characters no secret is made of; a cut falls just after one. */
const TOKEN_END = /[\s"'`,;=:(){}[\]<>|&]/;
const TOKEN_WINDOW = 256;

/**
 * Where to cut `text` at about `max`: back to the end of the last whole token within 256
 * characters, so a key is never cut into a readable prefix the redactor cannot recognise (the
 * output policy redacts only what it sees). `next` is the first character not kept, if known.
 */
export function tokenCut(text: string, max: number, next: string | undefined): number {
  if (next !== undefined && TOKEN_END.test(next)) return max;
  for (let at = max - 1; at >= Math.max(0, max - TOKEN_WINDOW); at--) {
    if (TOKEN_END.test(text[at] as string)) return at + 1;
  }
  return max;
}

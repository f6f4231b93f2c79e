// How deep a log's JSON may nest. Reading a line validates it recursively (zod, the compiled
// checks) and deriving serialises it again, so a value nested thousands of levels deep (a
// prompt-injected model's tool arguments, a hand-made log) would overflow the stack; the
// agent refuses such a response before it is recorded (agent/step.ts) and the reader reports
// such a line as damage (reader.ts). Iterative, so any depth is measured safely.

/** The deepest nesting an event may have, counting the event object itself as level 1. */
export const MAX_JSON_DEPTH = 256;

/** True when `value` nests arrays and objects more than `max` levels deep. */
export function exceedsJsonDepth(value: unknown, max = MAX_JSON_DEPTH): boolean {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop() as [unknown, number];
    if (typeof item !== "object" || item === null) continue;
    if (depth > max) return true;
    const children = Array.isArray(item) ? item : Object.values(item);
    for (const child of children) {
      if (typeof child === "object" && child !== null) stack.push([child, depth + 1]);
    }
  }
  return false;
}

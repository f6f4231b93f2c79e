// Canonical JSON (RFC 8785, JCS) for hashing: object keys sorted by UTF-16 code units, no
// whitespace, strings and numbers as ECMAScript's JSON.stringify writes them. The store writes
// these exact bytes, so a verifier in any language can recompute every hash.

/** Serialises a JSON value canonically. Throws on values JSON cannot represent. */
export function canonicalJson(value: unknown): string {
  switch (typeof value) {
    case "string":
      return JSON.stringify(value);
    case "number":
      if (!Number.isFinite(value)) throw new TypeError(`canonical JSON: ${value} is not finite`);
      return JSON.stringify(value);
    case "boolean":
      return value ? "true" : "false";
    case "object":
      if (value === null) return "null";
      return Array.isArray(value) ? arrayJson(value) : objectJson(value as Record<string, unknown>);
    default:
      throw new TypeError(`canonical JSON: cannot serialise a ${typeof value}`);
  }
}

function arrayJson(items: unknown[]): string {
  let out = "[";
  for (let i = 0; i < items.length; i++) {
    if (i > 0) out += ",";
    const item = items[i];
    out += item === undefined ? "null" : canonicalJson(item);
  }
  return `${out}]`;
}

// Objects of one shape recur (every chunk event has the same keys), so the sorted key order and
// each key's quoted prefix are cached by shape. The cache is bounded; past it, keys are sorted.
const shapes = new Map<string, Array<[key: string, prefix: string]>>();
const MAX_SHAPES = 4096;

function sortedKeys(keys: string[]): Array<[string, string]> {
  const shape = keys.join("\u0000");
  let sorted = shapes.get(shape);
  if (sorted) return sorted;
  sorted = [...keys].sort().map((key): [string, string] => [key, `${JSON.stringify(key)}:`]);
  if (shapes.size < MAX_SHAPES) shapes.set(shape, sorted);
  return sorted;
}

function objectJson(object: Record<string, unknown>): string {
  let out = "{";
  for (const [key, prefix] of sortedKeys(Object.keys(object))) {
    const item = object[key];
    if (item === undefined) continue;
    out += out.length === 1 ? prefix : `,${prefix}`;
    out += canonicalJson(item);
  }
  return `${out}}`;
}

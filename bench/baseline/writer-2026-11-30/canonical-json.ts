// Benchmark baseline for bench/session-log.ts: canonicalJson of b6032e7 (2026-11-30), whole
// (with its shape-cache NUL-key bug, fixed in src/ by dd208d5). Not used by codewhale (src/).
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
// each key's quoted prefix are cached by shape. A one-entry memo of the last shape skips even
// the lookup on the hot path; the cache is bounded, and past it keys are sorted each time.
interface Shape {
  keys: string[];
  sorted: string[];
  prefixes: string[];
}
const shapes = new Map<string, Shape>();
const MAX_SHAPES = 4096;
let lastShape: Shape = { keys: [], sorted: [], prefixes: [] };

function sameKeys(a: string[], b: string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function shapeOf(keys: string[]): Shape {
  if (sameKeys(keys, lastShape.keys)) return lastShape;
  const id = keys.join("\u0000");
  let shape = shapes.get(id);
  if (!shape) {
    const sorted = [...keys].sort();
    shape = { keys, sorted, prefixes: sorted.map((key) => `${JSON.stringify(key)}:`) };
    if (shapes.size < MAX_SHAPES) shapes.set(id, shape);
  }
  lastShape = shape;
  return shape;
}

function objectJson(object: Record<string, unknown>): string {
  const { sorted, prefixes } = shapeOf(Object.keys(object));
  let out = "{";
  for (let i = 0; i < sorted.length; i++) {
    const item = object[sorted[i]!];
    if (item === undefined) continue;
    out += out.length === 1 ? prefixes[i] : `,${prefixes[i]}`;
    out += canonicalJson(item);
  }
  return `${out}}`;
}

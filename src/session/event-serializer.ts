// Canonical JSON of one event, specialised per event type. The keys of each type (envelope
// and payload) are known from events.ts, so they are sorted once and a straight-line
// serializer is compiled for the type; values still go through canonicalJson (strings through
// JSON.stringify directly). An object with keys outside its schema falls back to the generic path.

import { z } from "zod";
import { canonicalJson } from "./canonical-json.ts";
import { isEventType, payloadSchemas, SESSION_SCHEMA_VERSION } from "./events.ts";

type Serializer = (event: Record<string, unknown>, value: typeof canonicalJson) => string | null;

const ENVELOPE_KEYS = ["v", "seq", "ts", "type"];
const compiled = new Map<string, Serializer>();

/** A JavaScript expression serialising `v` canonically, with fast paths for the common types. */
const VALUE =
  '(typeof v === "string" ? JSON.stringify(v) : typeof v === "number" && Number.isSafeInteger(v) ? "" + v : C(v))';

function compile(type: keyof typeof payloadSchemas): Serializer {
  const shape = payloadSchemas[type].shape as Record<string, { isOptional(): boolean }>;
  const keys = [...Object.keys(shape), ...ENVELOPE_KEYS].sort();
  const lines = ['let out = "{", n = 0, v, k = 0;', "for (const _ in e) k++;"];
  let requiredBefore = false;
  keys.forEach((key, index) => {
    const optional = shape[key]?.isOptional() ?? false;
    const name = JSON.stringify(`${JSON.stringify(key)}:`);
    const comma = requiredBefore
      ? JSON.stringify(",")
      : index === 0
        ? '""'
        : '(n === 0 ? "" : ",")';
    const prefix = `${comma} + ${name}`;
    lines.push(`v = e[${JSON.stringify(key)}];`);
    if (optional) lines.push(`if (v !== undefined) { out += ${prefix} + ${VALUE}; n++; }`);
    else lines.push("if (v === undefined) return null;", `out += ${prefix} + ${VALUE}; n++;`);
    if (!optional) requiredBefore = true;
  });
  // Parsed or built events have no undefined members, so a larger key count means an unknown key.
  lines.push('return n === k ? out + "}" : null;');
  return new Function("e", "C", lines.join("\n")) as Serializer;
}

/** The canonical JSON of an event (without `h`); identical to `canonicalJson(event)`. */
export function canonicalEvent(event: Record<string, unknown>): string {
  const type = event.type;
  if (!isEventType(type)) return canonicalJson(event);
  let serializer = compiled.get(type);
  if (!serializer) {
    serializer = compile(type);
    compiled.set(type, serializer);
  }
  return serializer(event, canonicalJson) ?? canonicalJson(event);
}

type DraftBuilder = (input: Record<string, unknown>, seq: number, ts: string) => Draft | null;
type Draft = Record<string, unknown>;

const builders = new Map<string, DraftBuilder | null>();
const PRIMITIVE = new Set(["string", "integer", "number", "boolean"]);

/**
 * For event types whose payload fields are all required primitives (the streamed chunk among
 * them), a builder that lays the event out with its keys already in canonical order, so that
 * `JSON.stringify` of it is its canonical JSON: no key sorting and no string assembly on the
 * hot path. Returns null for other types; the built draft is null when the input has an
 * unknown key or a value JSON cannot carry as is, and the caller takes the generic path.
 */
function draftBuilder(type: string): DraftBuilder | null {
  if (builders.has(type)) return builders.get(type) ?? null;
  const builder = isEventType(type) ? compileBuilder(type) : null;
  builders.set(type, builder);
  return builder;
}

function compileBuilder(type: keyof typeof payloadSchemas): DraftBuilder | null {
  const json = z.toJSONSchema(payloadSchemas[type]) as {
    properties?: Record<string, { type?: string; enum?: unknown[]; const?: unknown }>;
    required?: string[];
  };
  const fields = Object.entries(json.properties ?? {});
  const flat = fields.every(
    ([key, p]) =>
      (json.required ?? []).includes(key) &&
      (p.enum !== undefined || p.const !== undefined || PRIMITIVE.has(p.type ?? "")),
  );
  if (!flat) return null;
  const names = fields.map(([key]) => key);
  const lines = [
    "let k = 0; for (const _ in e) k++;",
    `if (k !== ${names.length + 1}) return null;`,
  ];
  names.forEach((key, i) => {
    lines.push(
      `const a${i} = e[${JSON.stringify(key)}];`,
      `if (a${i} === undefined || typeof a${i} === "object" || (typeof a${i} === "number" && !Number.isFinite(a${i}))) return null;`,
    );
  });
  const members = [
    ...names.map((key, i) => [key, `a${i}`]),
    ["seq", "seq"],
    ["ts", "ts"],
    ["type", "e.type"],
    ["v", String(SESSION_SCHEMA_VERSION)],
  ].sort(([a], [b]) => ((a as string) < (b as string) ? -1 : 1));
  lines.push(
    `return { ${members.map(([key, value]) => `${JSON.stringify(key)}: ${value}`).join(", ")} };`,
  );
  return new Function("e", "seq", "ts", lines.join("\n")) as DraftBuilder;
}

/**
 * The event (without `h`) and its canonical JSON. Flat types are laid out in canonical key
 * order and serialised natively; every other event goes through canonicalEvent.
 */
export function draftAndBody(
  input: Record<string, unknown> & { type: string },
  seq: number,
  ts: string,
): { draft: Draft; body: string } {
  const fast = draftBuilder(input.type)?.(input, seq, ts);
  if (fast) return { draft: fast, body: JSON.stringify(fast) };
  const draft: Draft = { v: SESSION_SCHEMA_VERSION, seq, ts, ...input };
  return { draft, body: canonicalEvent(draft) };
}

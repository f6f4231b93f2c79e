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

type Draft = Record<string, unknown>;
type DraftBuilder = (
  input: Record<string, unknown>,
  seq: number,
  ts: string,
) => DraftAndBody | null;
interface DraftAndBody {
  draft: Draft;
  body: string;
}

const builders = new Map<string, DraftBuilder | null>();
/** How a flat field's value is checked and written, by its JSON-schema type. */
const FLAT_FIELD: Record<string, { check(v: string): string; write(v: string): string }> = {
  string: { check: (v) => `typeof ${v} === "string"`, write: (v) => `JSON.stringify(${v})` },
  integer: { check: (v) => `Number.isFinite(${v})`, write: (v) => `"" + ${v}` },
  number: { check: (v) => `Number.isFinite(${v})`, write: (v) => `"" + ${v}` },
  boolean: { check: (v) => `typeof ${v} === "boolean"`, write: (v) => `"" + ${v}` },
};

/**
 * For event types whose payload fields are all required primitives (the streamed chunk among
 * them), a compiled builder that lays the event out with its keys in canonical order and
 * writes its canonical JSON in one template: no key sorting, no generic value dispatch on the
 * hot path. Returns null for other types; the builder returns null when the input has an
 * unknown key or a value of another type, and the caller takes the generic path.
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
  const fields = Object.entries(json.properties ?? {}).map(([key, p]) => ({
    key,
    kind: flatKind(p),
    required: (json.required ?? []).includes(key),
  }));
  if (!fields.every((field) => field.required && field.kind !== null)) return null;
  const lines = [
    "let k = 0; for (const _ in e) k++;",
    `if (k !== ${fields.length + 1}) return null;`,
  ];
  const members: [key: string, value: string, json: string][] = [
    ["seq", "seq", '"" + seq'],
    ["ts", "ts", "JSON.stringify(ts)"],
    ["type", "e.type", JSON.stringify(JSON.stringify(type))],
    ["v", String(SESSION_SCHEMA_VERSION), JSON.stringify(String(SESSION_SCHEMA_VERSION))],
  ];
  fields.forEach(({ key, kind }, i) => {
    const field = FLAT_FIELD[kind as string];
    if (!field) throw new Error(`no flat writer for ${kind}`);
    lines.push(
      `const a${i} = e[${JSON.stringify(key)}];`,
      `if (!(${field.check(`a${i}`)})) return null;`,
    );
    members.push([key, `a${i}`, field.write(`a${i}`)]);
  });
  members.sort(([a], [b]) => (a < b ? -1 : 1));
  const draft = members.map(([key, value]) => `${JSON.stringify(key)}: ${value}`).join(", ");
  const body = members
    .map(
      ([key, , write], i) =>
        `${JSON.stringify(`${i === 0 ? "{" : ","}${JSON.stringify(key)}:`)} + ${write}`,
    )
    .join(" + ");
  lines.push(`return { draft: { ${draft} }, body: ${body} + "}" };`);
  return new Function("e", "seq", "ts", lines.join("\n")) as DraftBuilder;
}

/** The JSON-schema type a flat field is written as, or null when the field is not flat. */
function flatKind(p: { type?: string; enum?: unknown[]; const?: unknown }): string | null {
  const values = p.enum ?? (p.const === undefined ? undefined : [p.const]);
  if (values) {
    const kinds = new Set(values.map((value) => typeof value));
    return kinds.size === 1 && FLAT_FIELD[[...kinds][0] as string]
      ? ([...kinds][0] as string)
      : null;
  }
  return p.type !== undefined && FLAT_FIELD[p.type] ? p.type : null;
}

/**
 * The event (without `h`) and its canonical JSON. Flat types are laid out in canonical key
 * order and written by their compiled template; every other event goes through canonicalEvent.
 */
export function draftAndBody(
  input: Record<string, unknown> & { type: string },
  seq: number,
  ts: string,
): DraftAndBody {
  const fast = draftBuilder(input.type)?.(input, seq, ts);
  if (fast) return fast;
  const draft: Draft = { v: SESSION_SCHEMA_VERSION, seq, ts, ...input };
  return { draft, body: canonicalEvent(draft) };
}

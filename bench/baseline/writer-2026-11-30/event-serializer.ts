// Benchmark baseline for bench/session-log.ts: the event serializer of b6032e7 (2026-11-30),
// whole, over today's events.ts. Not used by codewhale (src/).
// Canonical JSON of one event, specialised per event type from the schemas in events.ts: flat
// types (the streamed chunk among them) get a compiled builder that lays the event out and
// writes its body by one template; others a compiled serializer over their sorted keys. Any
// value or key the compiled code does not expect falls back to the generic canonicalJson.

import { z } from "zod";
import {
  isEventType,
  payloadSchemas,
  SESSION_SCHEMA_VERSION,
} from "../../../src/session/events.ts";
import { canonicalJson } from "./canonical-json.ts";

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
 * For event types whose required payload fields are all primitives (the streamed chunk among
 * them), a compiled builder that lays the event out with its keys in canonical order and
 * writes its canonical JSON in one template: no key sorting, no generic value dispatch on the
 * hot path. Returns null for other types; the builder returns null when the input has an
 * optional or unknown key or a value of another type, and the caller takes the generic path.
 */
function draftBuilder(type: string): DraftBuilder | null {
  if (builders.has(type)) return builders.get(type) ?? null;
  const builder = isEventType(type) ? compileBuilder(type) : null;
  builders.set(type, builder);
  return builder;
}

function compileBuilder(type: keyof typeof payloadSchemas): DraftBuilder | null {
  const json = z.toJSONSchema(payloadSchemas[type]) as {
    properties?: Record<string, FieldSchema>;
    required?: string[];
  };
  // Only required fields are laid out: an input with an optional one has a larger key count
  // and takes the generic path.
  const fields = Object.entries(json.properties ?? {})
    .filter(([key]) => (json.required ?? []).includes(key))
    .map(([key, p]) => ({
      key,
      kind: flatKind(p),
      free: p.enum === undefined && p.const === undefined,
    }));
  if (!fields.every((field) => field.kind !== null)) return null;
  const checks = [
    "let k = 0; for (const _ in e) k++;",
    `if (k !== ${fields.length + 1}) return null;`,
  ];
  const members: Member[] = [
    { key: "seq", value: "seq", write: '"" + seq', volatile: true },
    { key: "ts", value: "ts", write: "JSON.stringify(ts)", compare: "ts" },
    { key: "type", value: "e.type", write: JSON.stringify(JSON.stringify(type)) },
    { key: "v", value: String(SESSION_SCHEMA_VERSION), write: `"${SESSION_SCHEMA_VERSION}"` },
  ];
  fields.forEach(({ key, kind, free }, i) => {
    const field = FLAT_FIELD[kind as string];
    if (!field) throw new Error(`no flat writer for ${kind}`);
    const a = `a${i}`;
    checks.push(
      `const ${a} = e[${JSON.stringify(key)}];`,
      `if (!(${field.check(a)})) return null;`,
    );
    const volatile = kind === "string" && free;
    members.push({
      key,
      value: a,
      write: field.write(a),
      ...(volatile ? { volatile } : { compare: a }),
    });
  });
  members.sort((a, b) => (a.key < b.key ? -1 : 1));
  const { setup, body } = bodyTemplate(members);
  const draft = members.map((m) => `${JSON.stringify(m.key)}: ${m.value}`).join(", ");
  // `h` is laid out now (filled in by the writer) so that setting it grows nothing.
  const code = [...checks, ...setup, `return { draft: { ${draft}, "h": "" }, body: ${body} };`];
  const factory = new Function("c", `return (e, seq, ts) => {\n${code.join("\n")}\n};`);
  return factory({}) as DraftBuilder;
}

interface FieldSchema {
  type?: string;
  enum?: unknown[];
  const?: unknown;
}

/** One member of a flat event: its draft value and JSON expressions, and how it varies. */
interface Member {
  key: string;
  value: string;
  write: string;
  /** Differs on nearly every event (seq, free text): written in place each time. */
  volatile?: boolean;
  /** The expression whose change invalidates the cached text around this member. */
  compare?: string;
}

/**
 * The body as few concatenations as possible: the text between volatile members (keys,
 * separators and the values that rarely change, such as turn, step, block and kind) is kept
 * from the previous call in the cache `c` while those values are unchanged. A chunk's body is
 * then four concatenations instead of eighteen.
 */
function bodyTemplate(members: Member[]): { setup: string[]; body: string } {
  const setup: string[] = [];
  const pieces: string[] = [];
  let parts: string[] = [];
  let compares: string[] = [];
  const close = () => {
    const text = parts.join(" + ");
    if (compares.length === 0) pieces.push(text);
    else {
      const f = `f${setup.length}`;
      const changed = compares.map((v, j) => `c.${f}_${j} !== ${v}`).join(" || ");
      const remember = compares.map((v, j) => `c.${f}_${j} = ${v};`).join(" ");
      setup.push(
        `let ${f} = c.${f}; if (${f} === undefined || ${changed}) { ${f} = c.${f} = ${text}; ${remember} }`,
      );
      pieces.push(f);
    }
    parts = [];
    compares = [];
  };
  members.forEach((member, i) => {
    parts.push(JSON.stringify(`${i === 0 ? "{" : ","}${JSON.stringify(member.key)}:`));
    if (member.volatile) {
      close();
      pieces.push(member.write);
    } else {
      parts.push(member.write);
      if (member.compare) compares.push(member.compare);
    }
  });
  parts.push('"}"');
  close();
  return { setup, body: pieces.join(" + ") };
}

/** The JSON-schema type a flat field is written as, or null when the field is not flat. */
function flatKind(p: FieldSchema): string | null {
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

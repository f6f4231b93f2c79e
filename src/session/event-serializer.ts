// Canonical JSON of one event, specialised per event type. The keys of each type (envelope
// and payload) are known from events.ts, so they are sorted once and a straight-line
// serializer is compiled for the type; values still go through canonicalJson (strings through
// JSON.stringify directly). An object with keys outside its schema falls back to the generic path.
import { canonicalJson } from "./canonical-json.ts";
import { isEventType, payloadSchemas } from "./events.ts";

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

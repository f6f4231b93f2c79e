// Canonical JSON of one event, specialised per event type. The keys of each type (envelope
// and payload) are known from events.ts, so they are sorted once and a straight-line
// serializer is compiled for the type; values still go through canonicalJson (strings through
// JSON.stringify directly). An object with keys outside its schema falls back to the generic path.
import { canonicalJson } from "./canonical-json.ts";
import { isEventType, payloadSchemas } from "./events.ts";

type Serializer = (event: Record<string, unknown>, value: typeof canonicalJson) => string | null;

const ENVELOPE_KEYS = ["v", "seq", "ts", "type"];
const compiled = new Map<string, Serializer>();

function compile(type: keyof typeof payloadSchemas): Serializer {
  const keys = [...Object.keys(payloadSchemas[type].shape), ...ENVELOPE_KEYS].sort();
  const lines = ['let out = "{", n = 0, v;'];
  for (const key of keys) {
    const prefix = JSON.stringify(`${JSON.stringify(key)}:`);
    lines.push(
      `v = e[${JSON.stringify(key)}];`,
      `if (v !== undefined) { out += (n++ === 0 ? "" : ",") + ${prefix} + (typeof v === "string" ? JSON.stringify(v) : C(v)); }`,
    );
  }
  lines.push('return n === Object.keys(e).length ? out + "}" : null;');
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

// Fast validators for the flat event types (fields of string, integer, number, boolean, enum
// or const, or arrays of those), compiled once from the same zod definitions through their JSON Schema into a
// straight-line function. Replay runs them on every line; zod runs for nested types and to
// word a failure. The generated code embeds only JSON-encoded keys and constants.
import { z } from "zod";

export type FlatValidator = (event: Record<string, unknown>) => boolean;

interface PropertySchema {
  type?: string;
  enum?: unknown[];
  const?: unknown;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  items?: PropertySchema;
}

const BOUNDS = ["minimum", "maximum", "minLength", "maxLength"];

/** Compiles a validator for a flat strict object schema, or returns null when it is not flat. */
export function compileFlatValidator(schema: z.ZodType): FlatValidator | null {
  const json = z.toJSONSchema(schema) as {
    properties?: Record<string, PropertySchema>;
    required?: string[];
    additionalProperties?: boolean;
  };
  if (!json.properties || json.additionalProperties !== false) return null;
  const lines = ["let n = 0, v;"];
  for (const [key, property] of Object.entries(json.properties)) {
    const test = propertyTest(property);
    if (test === null) return null;
    const required = json.required?.includes(key) ?? false;
    lines.push(
      `v = e[${JSON.stringify(key)}];`,
      `if (v === undefined) { ${required ? "return false;" : ""} } else { if (!(${test})) return false; n++; }`,
    );
  }
  // Parsed JSON has no undefined values, so a key count above the known ones is an unknown key.
  lines.push("return n === Object.keys(e).length;");
  return new Function("e", lines.join("\n")) as FlatValidator;
}

/** A JavaScript boolean expression over `v`, or null for a property that is not flat. */
function propertyTest(p: PropertySchema): string | null {
  if (p.type === "array" && p.items && Object.keys(p).length === 2) {
    const item = scalarTest(p.items);
    return item === null ? null : `Array.isArray(v) && v.every((v) => ${item})`;
  }
  return scalarTest(p);
}

function scalarTest(p: PropertySchema): string | null {
  if (p.const !== undefined) return `v === ${JSON.stringify(p.const)}`;
  if (p.enum) return p.enum.map((option) => `v === ${JSON.stringify(option)}`).join(" || ");
  if (Object.keys(p).some((key) => key !== "type" && !BOUNDS.includes(key))) return null;
  const bounds = boundTests(p);
  switch (p.type) {
    case "string":
      return [`typeof v === "string"`, ...bounds].join(" && ");
    case "integer":
      return ["Number.isSafeInteger(v)", ...bounds].join(" && ");
    case "number":
      return ["typeof v === 'number'", "Number.isFinite(v)", ...bounds].join(" && ");
    case "boolean":
      return `typeof v === "boolean"`;
    default:
      return null;
  }
}

function boundTests(p: PropertySchema): string[] {
  const tests: string[] = [];
  if (p.minimum !== undefined) tests.push(`v >= ${Number(p.minimum)}`);
  if (p.maximum !== undefined) tests.push(`v <= ${Number(p.maximum)}`);
  if (p.minLength !== undefined) tests.push(`v.length >= ${Number(p.minLength)}`);
  if (p.maxLength !== undefined) tests.push(`v.length <= ${Number(p.maxLength)}`);
  return tests;
}

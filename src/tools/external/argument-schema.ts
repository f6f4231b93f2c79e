// Turns the JSON-schema-like `arguments` table of a `[[tools.external]]` entry into a zod
// schema, so external tools are validated like built-ins. A small, strict subset: an object
// with `properties` (string, number, integer, boolean; enum, default, bounds, pattern) and
// `required`; any other keyword is a ConfigError naming the key, never silently ignored.
import * as z from "zod";
import { ConfigError } from "../../errors.ts";
import type { JsonValue } from "../../session/events.ts";

export type ArgumentShape = Record<string, z.ZodType>;

const OBJECT_KEYS = new Set([
  "type",
  "properties",
  "required",
  "additionalProperties",
  "description",
]);
const PROPERTY_KEYS: Record<string, ReadonlySet<string>> = {
  string: new Set(["type", "description", "enum", "default", "minLength", "maxLength", "pattern"]),
  number: new Set(["type", "description", "enum", "default", "minimum", "maximum"]),
  integer: new Set(["type", "description", "enum", "default", "minimum", "maximum"]),
  boolean: new Set(["type", "description", "default"]),
};

type Table = Record<string, JsonValue>;

/** The zod object for `table` (undefined: no arguments). `key` names it in errors. */
export function argumentSchemaFrom(
  table: Table | undefined,
  key: string,
): z.ZodObject<ArgumentShape> {
  if (table === undefined) return z.strictObject({});
  checkKeys(table, OBJECT_KEYS, key);
  if (table.type !== undefined && table.type !== "object") {
    throw problem(key, "type", `must be "object", got ${JSON.stringify(table.type)}`);
  }
  const properties = asTable(table.properties ?? {}, `${key}.properties`);
  const required = table.required ?? [];
  if (!Array.isArray(required) || !required.every((name) => typeof name === "string")) {
    throw problem(key, "required", "must be a list of property names");
  }
  for (const name of required) {
    if (!(name in properties))
      throw problem(key, "required", `names "${name}", which has no property`);
  }
  const shape: ArgumentShape = {};
  for (const [name, spec] of Object.entries(properties)) {
    const property = propertySchema(
      asTable(spec, `${key}.properties.${name}`),
      `${key}.properties.${name}`,
    );
    const hasDefault = asTable(spec, name).default !== undefined;
    shape[name] = required.includes(name) || hasDefault ? property : property.optional();
  }
  return table.additionalProperties === true ? z.object(shape) : z.strictObject(shape);
}

function propertySchema(spec: Table, key: string): z.ZodType {
  const type = spec.type;
  if (typeof type !== "string" || !(type in PROPERTY_KEYS)) {
    throw problem(
      key,
      "type",
      `unsupported ${JSON.stringify(type)} (use string, number, integer or boolean)`,
    );
  }
  checkKeys(spec, PROPERTY_KEYS[type] ?? new Set(), key);
  let schema = baseSchema(type, spec, key);
  if (typeof spec.description === "string") schema = schema.describe(spec.description);
  if (spec.default !== undefined) {
    const checked = schema.safeParse(spec.default);
    if (!checked.success) throw problem(key, "default", "does not match the property's type");
    schema = schema.default(checked.data as never);
  }
  return schema;
}

function baseSchema(type: string, spec: Table, key: string): z.ZodType {
  if (spec.enum !== undefined) return enumSchema(type, spec.enum, key);
  if (type === "boolean") return z.boolean();
  if (type === "string") {
    let schema = z.string();
    if (spec.minLength !== undefined) schema = schema.min(count(spec.minLength, key, "minLength"));
    if (spec.maxLength !== undefined) schema = schema.max(count(spec.maxLength, key, "maxLength"));
    if (spec.pattern !== undefined) schema = schema.regex(pattern(spec.pattern, key));
    return schema;
  }
  let schema = type === "integer" ? z.number().int() : z.number();
  if (spec.minimum !== undefined) schema = schema.min(numberAt(spec.minimum, key, "minimum"));
  if (spec.maximum !== undefined) schema = schema.max(numberAt(spec.maximum, key, "maximum"));
  return schema;
}

function enumSchema(type: string, values: JsonValue, key: string): z.ZodType {
  const wanted = type === "string" ? "string" : "number";
  if (!Array.isArray(values) || values.length === 0 || !values.every((v) => typeof v === wanted)) {
    throw problem(key, "enum", `must be a non-empty list of ${wanted}s`);
  }
  if (type === "string") return z.enum(values as [string, ...string[]]);
  const literals = (values as number[]).map((value) => z.literal(value));
  const [first, ...rest] = literals;
  return rest.length === 0 && first
    ? first
    : z.union(literals as [z.ZodLiteral<number>, z.ZodLiteral<number>]);
}

function checkKeys(table: Table, allowed: ReadonlySet<string>, key: string): void {
  for (const name of Object.keys(table)) {
    if (!allowed.has(name)) {
      throw problem(key, name, `is not supported here (allowed: ${[...allowed].join(", ")})`);
    }
  }
}

function asTable(value: JsonValue | undefined, key: string): Table {
  if (typeof value === "object" && value !== null && !Array.isArray(value)) return value;
  throw new ConfigError(`${key} must be a table`, undefined, undefined, key);
}

function count(value: JsonValue, key: string, name: string): number {
  if (typeof value === "number" && Number.isInteger(value) && value >= 0) return value;
  throw problem(key, name, "must be a whole number");
}

function numberAt(value: JsonValue, key: string, name: string): number {
  if (typeof value === "number") return value;
  throw problem(key, name, "must be a number");
}

function pattern(value: JsonValue, key: string): RegExp {
  try {
    if (typeof value === "string") return new RegExp(value, "u");
  } catch {
    // Reported below.
  }
  throw problem(key, "pattern", "must be a valid regular expression");
}

function problem(key: string, name: string, message: string): ConfigError {
  return new ConfigError(`${key}.${name} ${message}`, undefined, undefined, `${key}.${name}`);
}

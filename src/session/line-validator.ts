// Compiled validators for event lines, built once per type from the same zod definitions
// through their JSON Schema into straight-line functions: flat fields, nested objects, arrays,
// unions and the recursive JSON value of tool arguments and message content. Replay runs them
// on every line (reader.ts); a line they reject goes to zod, which decides and words the
// failure, so a compiled check may be stricter than zod, never looser. A schema using any
// keyword not handled here gets no compiled validator. Generated code embeds only JSON literals.
import { z } from "zod";

export type LineValidator = (event: Record<string, unknown>) => boolean;

type Schema = Record<string, unknown>;

/** Keywords that describe and never constrain. */
const ANNOTATIONS = new Set(["$schema", "$defs", "description", "title", "$comment", "examples"]);
const BOUNDS: Record<string, string> = {
  minimum: ">=",
  maximum: "<=",
  exclusiveMinimum: ">",
  exclusiveMaximum: "<",
};
const SCALAR_TYPES = new Set(["string", "integer", "number", "boolean", "null"]);

/** Compiles a validator for a line schema, or returns null when it uses an unhandled keyword. */
export function compileLineValidator(schema: z.ZodType): LineValidator | null {
  const root = z.toJSONSchema(schema, { io: "input" }) as Schema;
  const compiler = new Compiler(root);
  const entry = compiler.node(root);
  if (entry === null) return null;
  const body = `${compiler.functions.join("\n")}\nreturn ${entry};`;
  const validate = new Function(body)() as LineValidator;
  return (event) => {
    try {
      return validate(event);
    } catch {
      return false; // too deep for the stack: zod decides
    }
  };
}

class Compiler {
  readonly functions: string[] = [];
  private readonly refs = new Map<string, string>();

  constructor(private readonly root: Schema) {}

  /** The name of a function `(v) => boolean` checking `schema`, or null. */
  node(schema: Schema): string | null {
    const name = `f${this.functions.length}`;
    this.functions.push(""); // reserved, so that a recursive $ref finds the name
    const index = this.functions.length - 1;
    const code = this.statements(schema);
    if (code === null) return null;
    this.functions[index] = `function ${name}(v) {\n${code}\n}`;
    return name;
  }

  private statements(schema: Schema): string | null {
    const keys = Object.keys(schema).filter((key) => !ANNOTATIONS.has(key));
    if (keys.length === 0) return "return true;";
    if (typeof schema.$ref === "string") return keys.length === 1 ? this.ref(schema.$ref) : null;
    if (Array.isArray(schema.anyOf)) {
      if (keys.length !== 1) return null;
      const options = schema.anyOf.map((option) => this.node(option as Schema));
      if (options.some((option) => option === null)) return null;
      return `return ${options.map((option) => `${option}(v)`).join(" || ")};`;
    }
    const tests = this.valueTests(schema, keys);
    if (tests === null) return null;
    const object = schema.type === "object" ? this.objectTest(schema) : "return true;";
    if (object === null) return null;
    return `if (!(${tests.join(" && ")})) return false;\n${object}`;
  }

  private ref(ref: string): string | null {
    const known = this.refs.get(ref);
    if (known) return `return ${known}(v);`;
    const match = /^#\/\$defs\/([A-Za-z0-9_]+)$/.exec(ref);
    const defs = this.root.$defs as Record<string, Schema> | undefined;
    const target = match ? defs?.[match[1] as string] : undefined;
    if (!target) return null;
    this.refs.set(ref, `f${this.functions.length}`);
    const name = this.node(target);
    return name === null ? null : `return ${name}(v);`;
  }

  /** Tests of type, const, enum, bounds and array items, as boolean expressions over `v`. */
  private valueTests(schema: Schema, keys: string[]): string[] | null {
    const tests: string[] = [];
    // The type test first: the bounds after it assume the type.
    for (const key of [...keys].sort((a, b) => Number(b === "type") - Number(a === "type"))) {
      const value = schema[key];
      if (key === "type") {
        const test = typeTest(value);
        if (test === null) return null;
        tests.push(test);
      } else if (key === "const" || key === "enum") {
        const options = key === "const" ? [value] : value;
        if (!Array.isArray(options) || !options.every(isScalar)) return null;
        tests.push(`(${options.map((option) => `v === ${JSON.stringify(option)}`).join(" || ")})`);
      } else if (key in BOUNDS) {
        if (typeof value !== "number" || !Number.isFinite(value)) return null;
        tests.push(`v ${BOUNDS[key]} ${JSON.stringify(value)}`);
      } else if (key === "minLength" || key === "maxLength") {
        if (!Number.isSafeInteger(value)) return null;
        tests.push(`v.length ${key === "minLength" ? ">=" : "<="} ${value as number}`);
      } else if (key === "items" && schema.type === "array") {
        const item = this.node(value as Schema);
        if (item === null) return null;
        tests.push(`v.every((x) => ${item}(x))`);
      } else if (!isObjectKeyword(key) || schema.type !== "object") {
        return null;
      }
    }
    // Bounds and lengths apply to one type only: the type test must come first and be single.
    if (!("type" in schema) || Array.isArray(schema.type)) {
      if (keys.some((key) => key in BOUNDS || key.endsWith("Length") || key === "items")) {
        return null;
      }
    }
    return tests;
  }

  /** The statements checking an object's members (its type already checked). */
  private objectTest(schema: Schema): string | null {
    const properties = (schema.properties ?? {}) as Record<string, Schema>;
    const required = (schema.required ?? []) as unknown[];
    const names = schema.propertyNames as Schema | undefined;
    if (names !== undefined && !(Object.keys(names).length === 1 && names.type === "string")) {
      return null; // JSON keys are strings: only that constraint is free
    }
    if (!required.every((key) => typeof key === "string" && Object.hasOwn(properties, key))) {
      return null;
    }
    const lines = ["let n = 0, x;"];
    for (const [key, property] of Object.entries(properties)) {
      const check = this.node(property);
      if (check === null) return null;
      const missing = required.includes(key) ? "return false;" : "";
      const at = JSON.stringify(key);
      // A name Object.prototype has must be an own member; others are read directly.
      const read =
        key in Object.prototype ? `Object.hasOwn(v, ${at}) ? v[${at}] : undefined` : `v[${at}]`;
      lines.push(
        `x = ${read};`,
        `if (x === undefined) { ${missing} } else { if (!${check}(x)) return false; n++; }`,
      );
    }
    const extra = schema.additionalProperties;
    if (extra === false) {
      // Parsed JSON has no undefined values, so more keys than known ones means an unknown key.
      lines.push("return n === Object.keys(v).length;");
    } else if (extra !== undefined && extra !== true) {
      const check = this.node(extra as Schema);
      if (check === null) return null;
      const known = JSON.stringify(Object.keys(properties));
      lines.push(
        `const known = ${known};`,
        `for (const k of Object.keys(v)) if (!known.includes(k) && !${check}(v[k])) return false;`,
        "return true;",
      );
    } else {
      lines.push("return true;");
    }
    return lines.join("\n");
  }
}

function isObjectKeyword(key: string): boolean {
  return (
    key === "properties" ||
    key === "required" ||
    key === "additionalProperties" ||
    key === "propertyNames"
  );
}

function isScalar(value: unknown): boolean {
  return value === null || ["string", "number", "boolean"].includes(typeof value);
}

/** The test of a JSON-schema `type` (one or a list of scalar types), or null. */
function typeTest(type: unknown): string | null {
  if (Array.isArray(type)) {
    if (!type.every((t) => typeof t === "string" && SCALAR_TYPES.has(t))) return null;
    return `(${type.map((t) => typeTest(t)).join(" || ")})`;
  }
  switch (type) {
    case "string":
      return `typeof v === "string"`;
    case "integer":
      return "Number.isSafeInteger(v)";
    case "number":
      return `(typeof v === "number" && Number.isFinite(v))`;
    case "boolean":
      return `typeof v === "boolean"`;
    case "null":
      return "v === null";
    case "array":
      return "Array.isArray(v)";
    case "object":
      return `(typeof v === "object" && v !== null && !Array.isArray(v))`;
    default:
      return null;
  }
}

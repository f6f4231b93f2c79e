// Compiled checks built from zod schemas through their JSON Schema into straight-line
// functions: flat fields, nested objects, records, arrays, unions, patterns and the recursive
// JSON value. Session replay runs one per event type on every line (session/reader.ts); config
// loading runs one over a big config file (config/file-check.ts). Whatever a check rejects goes
// to zod, which decides and words the failure, so a check may be stricter than zod, never looser:
// a part whose zod meaning JSON Schema drops (a refine, a transform, a URL) is either checked by
// zod itself (`zodFallback`) or leaves the schema without a compiled check (null). Shared by
// session/ and config/; the generated code embeds only JSON literals.
import { z } from "zod";

/** A compiled check: true means zod accepts the value; false means ask zod. */
export type CompiledCheck = (value: unknown) => boolean;

export interface CompileOptions {
  /**
   * Accept JSON Schema's `default` as an annotation (the input view: a key with a default may
   * be absent). Only for callers that keep zod's output for nothing but the verdict.
   */
  defaults?: boolean;
  /** Check the parts JSON Schema cannot say exactly with zod itself instead of giving up. */
  zodFallback?: boolean;
}

type Schema = Record<string, unknown>;

/** Marks a JSON Schema node whose zod schema must decide it (the index of that schema). */
const ZOD_NODE = "x-zod-node";
/** Keywords that describe and never constrain. */
const ANNOTATIONS = new Set(["$schema", "$defs", "description", "title", "$comment", "examples"]);
const BOUNDS: Record<string, string> = {
  minimum: ">=",
  maximum: "<=",
  exclusiveMinimum: ">",
  exclusiveMaximum: "<",
};
const SCALAR_TYPES = new Set(["string", "integer", "number", "boolean", "null"]);
/** zod types whose JSON Schema says all they check (given exact checks, below). */
const EXACT_TYPES = new Set([
  ...["string", "number", "boolean", "null", "object", "record", "array", "union"],
  ...["optional", "default", "prefault", "nullable", "enum", "literal", "lazy", "unknown", "any"],
]);
/** zod checks JSON Schema says exactly. */
const EXACT_CHECKS = new Set([
  ...["min_length", "max_length", "length_equals", "greater_than", "less_than"],
]);

/**
 * Compiles a check of `schema`, or returns null when part of it cannot be compiled (and there
 * is no `zodFallback`). A value too deep for the stack is left to zod.
 */
export function compileCheck(
  schema: z.ZodType,
  options: CompileOptions = {},
): CompiledCheck | null {
  const fallbacks: z.core.$ZodType[] = [];
  const root = z.toJSONSchema(schema, {
    io: "input",
    unrepresentable: "any",
    override: (ctx) => {
      if (needsZod(ctx.zodSchema)) ctx.jsonSchema[ZOD_NODE] = fallbacks.push(ctx.zodSchema) - 1;
    },
  }) as Schema;
  const compiler = new Compiler(root, options);
  const entry = compiler.node(root);
  if (entry === null) return null;
  const zodChecks = fallbacks.map((part) => (value: unknown) => z.safeParse(part, value).success);
  const body = `${compiler.preamble.join("\n")}\n${compiler.functions.join("\n")}\nreturn ${entry};`;
  const validate = new Function("zod", body)(zodChecks) as CompiledCheck;
  return (value) => {
    try {
      return validate(value);
    } catch {
      return false; // too deep for the stack: zod decides
    }
  };
}

/** Whether zod checks more of `schema` itself than its JSON Schema says (not its children). */
function needsZod(schema: z.core.$ZodType): boolean {
  const def = schema._zod.def as { type: string; format?: unknown; checks?: unknown[] };
  if (!EXACT_TYPES.has(def.type)) return true;
  if (def.type === "string" && def.format !== undefined) return true; // z.url(), z.email(), …
  return (def.checks ?? []).some((check) => !isExactCheck(check));
}

function isExactCheck(check: unknown): boolean {
  const def = (check as { _zod: { def: Record<string, unknown> } })._zod.def;
  if (typeof def.check === "string" && EXACT_CHECKS.has(def.check)) return true;
  if (def.check === "number_format") return def.format === "safeint";
  if (def.check === "string_format" && def.format === "regex") {
    return def.pattern instanceof RegExp && def.pattern.flags === "";
  }
  return false; // refine, trim, includes, multiple_of, …
}

class Compiler {
  readonly functions: string[] = [];
  /** Constants the functions share: the compiled patterns. */
  readonly preamble: string[] = [PLAIN_OBJECT];
  private readonly refs = new Map<string, string>();

  constructor(
    private readonly root: Schema,
    private readonly options: CompileOptions,
  ) {}

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
    if (typeof schema[ZOD_NODE] === "number") {
      return this.options.zodFallback ? `return zod[${schema[ZOD_NODE]}](v);` : null;
    }
    const keys = Object.keys(schema).filter((key) => !this.isAnnotation(key));
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

  private isAnnotation(key: string): boolean {
    return ANNOTATIONS.has(key) || (key === "default" && this.options.defaults === true);
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

  /** Tests of type, const, enum, bounds, patterns and array items, as expressions over `v`. */
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
      } else if (LENGTHS[key] !== undefined && schema.type === LENGTHS[key]?.type) {
        if (!Number.isSafeInteger(value)) return null;
        tests.push(`v.length ${LENGTHS[key]?.op} ${value as number}`);
      } else if (key === "pattern" && schema.type === "string" && typeof value === "string") {
        const name = `p${this.preamble.length}`;
        this.preamble.push(`const ${name} = new RegExp(${JSON.stringify(value)});`);
        tests.push(`${name}.test(v)`);
      } else if (key === "items" && schema.type === "array") {
        const item = this.node(value as Schema);
        if (item === null) return null;
        tests.push(`v.every((x) => ${item}(x))`);
      } else if (!isObjectKeyword(key) || schema.type !== "object") {
        return null;
      }
    }
    // Bounds, lengths and patterns apply to one type only: the type test must come first.
    if (!("type" in schema) || Array.isArray(schema.type)) {
      const typed = (key: string) => key in BOUNDS || key in LENGTHS || key === "pattern";
      if (keys.some((key) => typed(key) || key === "items")) return null;
    }
    return tests;
  }

  /**
   * The statements checking an object's members (its type already checked). A record (no
   * named members, every key checked against `additionalProperties`) is read in one pass over
   * its own keys, the key itself checked against `propertyNames`; it must be a plain object, as
   * zod's records require. An object with named members reads each by name (fastest on the
   * objects JSON.parse makes), then counts its keys when it allows no others.
   */
  private objectTest(schema: Schema): string | null {
    const properties = (schema.properties ?? {}) as Record<string, Schema>;
    const required = (schema.required ?? []) as unknown[];
    if (!required.every((key) => typeof key === "string" && Object.hasOwn(properties, key))) {
      return null;
    }
    const names = this.keyTest(schema.propertyNames as Schema | undefined);
    if (names === null) return null;
    const extra = schema.additionalProperties;
    const other = extra === false || extra === undefined || extra === true ? null : extra;
    const otherCheck = other === null ? null : this.node(other as Schema);
    if (other !== null && otherCheck === null) return null;
    const nameTest = names === "" ? "" : `if (!${names}(k)) return false; `;
    if (Object.keys(properties).length === 0 && otherCheck !== null) {
      return [
        "if (!plain(v)) return false;",
        // zod checks an undefined value too.
        `for (const k in v) { if (!Object.hasOwn(v, k)) continue; ${nameTest}if (!${otherCheck}(v[k])) return false; }`,
        "return true;",
      ].join("\n");
    }
    const lines = ["let n = 0, x;"];
    if (names !== "") lines.push(`for (const k of Object.keys(v)) if (!${names}(k)) return false;`);
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
    if (extra === false) {
      // An unknown key, or a known one holding undefined, makes more keys than were counted.
      lines.push("return n === Object.keys(v).length;");
    } else if (otherCheck !== null) {
      lines.unshift("if (!plain(v)) return false;"); // stricter than a catchall needs
      const known = JSON.stringify(Object.keys(properties));
      lines.push(
        `const known = ${known};`,
        `for (const k of Object.keys(v)) if (!known.includes(k) && !${otherCheck}(v[k])) return false;`,
        "return true;",
      );
    } else {
      lines.push("return true;");
    }
    return lines.join("\n");
  }

  /** The function checking an object's keys: "" when any string will do, null if unhandled. */
  private keyTest(names: Schema | undefined): string | null {
    if (names === undefined) return "";
    const keys = Object.keys(names).filter((key) => !this.isAnnotation(key));
    if (keys.length === 1 && names.type === "string") return ""; // keys are strings
    if (names.type !== "string") return null;
    return this.node(names);
  }
}

/** A plain object, as zod's records require: never an array, a Date or a class instance. */
const PLAIN_OBJECT = `function plain(v) {
  if (typeof v !== "object" || v === null) return false;
  const p = Object.getPrototypeOf(v);
  return p === Object.prototype || p === null;
}`;

const LENGTHS: Record<string, { type: string; op: string } | undefined> = {
  minLength: { type: "string", op: ">=" },
  maxLength: { type: "string", op: "<=" },
  minItems: { type: "array", op: ">=" },
  maxItems: { type: "array", op: "<=" },
};

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

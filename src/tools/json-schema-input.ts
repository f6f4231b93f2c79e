// ToolInput over a JSON Schema (MCP tools declare their input this way), validated by Ajv 8,
// the validator @modelcontextprotocol/sdk uses. Ajv costs ~50 ms to load and more to compile,
// so it is imported on the first JSON-Schema tool only: `codewhale --version` and a session
// with only zod tools never load it. Issues read like the zod ones (tool-input.ts). A schema
// comes from a server, so it is bounded: at most MAX_SCHEMA_BYTES and MAX_SCHEMA_DEPTH deep,
// and its regular expressions (`pattern`, `patternProperties`) are not run here (a `(a+)+$`
// against a long model-chosen string would stall the session); the server checks them.
import type { ErrorObject, ValidateFunction } from "ajv";
import { errorMessage } from "../errors.ts";
import type { JsonValue } from "../session/events.ts";
import { boundIssues, issueLine, withoutDialect } from "./tool-input.ts";
import type { ToolInput } from "./types.ts";

type JsonSchema = Record<string, JsonValue>;

interface Compilers {
  draft7: { compile(schema: JsonSchema): ValidateFunction };
  draft2020: { compile(schema: JsonSchema): ValidateFunction };
}

let compilers: Promise<Compilers> | undefined;

/** Ajv's two dialects, loaded once. Formats are not checked (as without ajv-formats). */
function loadCompilers(): Promise<Compilers> {
  compilers ??= Promise.all([import("ajv"), import("ajv/dist/2020.js")]).then(
    ([draft7, draft2020]) => {
      // strict off: MCP servers send keywords Ajv does not know; logger off: no stderr noise.
      const options = { strict: false, allErrors: true, logger: false } as const;
      return {
        draft7: new draft7.Ajv(options),
        draft2020: new draft2020.Ajv2020(options),
      };
    },
  );
  return compilers;
}

/** The largest input schema taken, as JSON (it is sent with every request). */
export const MAX_SCHEMA_BYTES = 64 * 1024;
/** The deepest nesting of objects and arrays taken in a schema. */
export const MAX_SCHEMA_DEPTH = 32;

/** A compiled input, or why the schema cannot be one (a source turns that into a notice). */
export type CompiledInput = { ok: true; input: ToolInput } | { ok: false; problem: string };

/** The input of a tool whose arguments follow `schema`, an object schema. */
export async function jsonSchemaInput(schema: JsonSchema): Promise<CompiledInput> {
  if (schema.type !== "object") {
    return { ok: false, problem: 'the input schema must have type "object"' };
  }
  const bytes = Buffer.byteLength(JSON.stringify(schema));
  if (bytes > MAX_SCHEMA_BYTES) {
    return {
      ok: false,
      problem: `the input schema is ${bytes} bytes (at most ${MAX_SCHEMA_BYTES})`,
    };
  }
  if (depthOf(schema) > MAX_SCHEMA_DEPTH) {
    return { ok: false, problem: `the input schema nests deeper than ${MAX_SCHEMA_DEPTH} levels` };
  }
  const { draft7, draft2020 } = await loadCompilers();
  const dialect = typeof schema.$schema === "string" ? schema.$schema : "";
  let validate: ValidateFunction;
  try {
    validate = (dialect.includes("2020-12") ? draft2020 : draft7).compile(
      withoutRegExps(schema) as JsonSchema,
    );
  } catch (error) {
    const detail = errorMessage(error);
    return { ok: false, problem: `the input schema is not valid JSON Schema (${detail})` };
  }
  const modelSchema = withoutDialect(schema);
  const input: ToolInput = {
    jsonSchema: () => modelSchema,
    check(value) {
      if (validate(value)) return { ok: true, value };
      return { ok: false, issues: boundIssues((validate.errors ?? []).map(ajvIssue)) };
    },
  };
  return { ok: true, input };
}

/** `path: message`; a missing property is named in the path, as zod does. */
function ajvIssue(error: ErrorObject): string {
  const path = error.instancePath
    .split("/")
    .slice(1)
    .map((part) => part.replaceAll("~1", "/").replaceAll("~0", "~"));
  const params = error.params as Record<string, unknown>;
  if (error.keyword === "required" && typeof params.missingProperty === "string") {
    return issueLine([...path, params.missingProperty], "is required");
  }
  if (error.keyword === "additionalProperties" && typeof params.additionalProperty === "string") {
    return issueLine([...path, params.additionalProperty], "is not allowed here");
  }
  return issueLine(path, error.message ?? error.keyword);
}

function depthOf(value: JsonValue, depth = 0): number {
  if (typeof value !== "object" || value === null) return depth;
  let deepest = depth + 1;
  for (const child of Object.values(value)) {
    deepest = Math.max(deepest, depthOf(child, depth + 1));
    if (deepest > MAX_SCHEMA_DEPTH) break;
  }
  return deepest;
}

/**
 * The schema to validate with: `pattern` dropped wherever it is a string keyword, and an
 * object's `patternProperties` dropped with its `additionalProperties` (which depends on them).
 * Keys under `properties` are names, not keywords, so a property called "pattern" stays.
 */
function withoutRegExps(value: JsonValue, underProperties = false): JsonValue {
  if (Array.isArray(value)) return value.map((item) => withoutRegExps(item));
  if (typeof value !== "object" || value === null) return value;
  const out: Record<string, JsonValue> = {};
  const patterned = !underProperties && value.patternProperties !== undefined;
  for (const [key, child] of Object.entries(value)) {
    if (!underProperties && key === "pattern" && typeof child === "string") continue;
    if (patterned && (key === "patternProperties" || key === "additionalProperties")) continue;
    out[key] = withoutRegExps(child, !underProperties && isNameMap(key));
  }
  return out;
}

/** Keywords whose value maps names (not keywords) to schemas. */
function isNameMap(key: string): boolean {
  return (
    key === "properties" || key === "definitions" || key === "$defs" || key === "dependentSchemas"
  );
}

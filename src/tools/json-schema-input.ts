// ToolInput over a JSON Schema (MCP tools declare their input this way), validated by Ajv 8,
// the validator @modelcontextprotocol/sdk uses. Ajv costs ~50 ms to load and more to compile,
// so it is imported on the first JSON-Schema tool only: `codewhale --version` and a session
// with only zod tools never load it. Issues read like the zod ones (tool-input.ts).
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

/** A compiled input, or why the schema cannot be one (a source turns that into a notice). */
export type CompiledInput = { ok: true; input: ToolInput } | { ok: false; problem: string };

/** The input of a tool whose arguments follow `schema`, an object schema. */
export async function jsonSchemaInput(schema: JsonSchema): Promise<CompiledInput> {
  if (schema.type !== "object") {
    return { ok: false, problem: 'the input schema must have type "object"' };
  }
  const { draft7, draft2020 } = await loadCompilers();
  const dialect = typeof schema.$schema === "string" ? schema.$schema : "";
  let validate: ValidateFunction;
  try {
    validate = (dialect.includes("2020-12") ? draft2020 : draft7).compile(schema);
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

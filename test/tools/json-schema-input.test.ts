// JSON-Schema tool inputs (as MCP tools declare them), validated by Ajv: the same one-line
// `path: message` issues as zod inputs, both dialects, and schemas that cannot be inputs
// (not an object, not valid, a remote $ref: nothing is ever fetched) refused with a reason.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { z } from "zod";
import { jsonSchemaInput } from "../../src/tools/json-schema-input.ts";
import { zodInput } from "../../src/tools/tool-input.ts";
import type { ToolInput } from "../../src/tools/types.ts";

async function compiled(schema: Record<string, never> | object): Promise<ToolInput> {
  const result = await jsonSchemaInput(schema as never);
  assert.ok(result.ok, result.ok ? "" : result.problem);
  return result.input;
}

describe("JSON-Schema inputs", () => {
  it("accepts valid arguments as they are and reports each problem as path: message", async () => {
    const input = await compiled({
      type: "object",
      properties: {
        path: { type: "string" },
        lines: { type: "array", items: { type: "integer" } },
        mode: { enum: ["fast", "slow"] },
      },
      required: ["path"],
      additionalProperties: false,
    });
    assert.deepEqual(input.check({ path: "a.txt", lines: [1, 2] }), {
      ok: true,
      value: { path: "a.txt", lines: [1, 2] },
    });
    assert.deepEqual(input.check({ lines: [1, "two"], mode: "medium", other: 1 }), {
      ok: false,
      issues: [
        "path: is required",
        "other: is not allowed here",
        "lines.1: must be integer",
        "mode: must be equal to one of the allowed values",
      ],
    });
    assert.deepEqual(input.check([]), { ok: false, issues: ["(root): must be object"] });
  });

  it("reads like a zod input for the same mistake", async () => {
    const json = await compiled({
      type: "object",
      properties: { n: { type: "number" } },
      required: ["n"],
    });
    const zod = zodInput(z.object({ n: z.number() }));
    const paths = (input: ToolInput) => {
      const checked = input.check({ n: "1" });
      return checked.ok ? [] : checked.issues.map((issue) => issue.split(":")[0]);
    };
    assert.deepEqual(paths(json), paths(zod));
  });

  it("follows the 2020-12 dialect when the schema names it, and sends the model no $schema", async () => {
    const input = await compiled({
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      properties: {
        pair: { type: "array", prefixItems: [{ type: "string" }, { type: "number" }] },
      },
    });
    assert.equal(input.check({ pair: ["a", 1] }).ok, true);
    assert.deepEqual(input.check({ pair: [1, 1] }), {
      ok: false,
      issues: ["pair.0: must be string"],
    });
    assert.equal(input.jsonSchema().$schema, undefined);
  });

  it("bounds the issues of a call that gets everything wrong", async () => {
    const properties = Object.fromEntries(
      Array.from({ length: 30 }, (_, i) => [`p${i}`, { type: "string" }]),
    );
    const input = await compiled({ type: "object", properties, required: Object.keys(properties) });
    const checked = input.check({});
    assert.ok(!checked.ok);
    assert.equal(checked.issues.length, 11);
    assert.equal(checked.issues.at(-1), "and 20 more");
  });

  it("refuses schemas that cannot be a tool's input, with the reason", async () => {
    const cases: Array<[object, RegExp]> = [
      [{ type: "string" }, /must have type "object"/],
      [{ type: "object", properties: { a: { type: "nope" } } }, /not valid JSON Schema/],
      [
        { type: "object", properties: { a: { $ref: "http://127.0.0.1:9/remote.json" } } },
        /not valid JSON Schema \(can't resolve reference/,
      ],
    ];
    for (const [schema, reason] of cases) {
      const result = await jsonSchemaInput(schema as never);
      assert.equal(result.ok, false);
      assert.match(result.ok ? "" : result.problem, reason);
    }
  });
});

// The merged config's check gives exactly what zod over the whole gives (output with defaults,
// or the same issues) on merges of checked layers, while taking the merged `models` as it is.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseMergedConfig } from "../../src/config/merged-check.ts";
import { configSchema } from "../../src/config/schema.ts";

const models = { "a/b": { context_window: 1000 }, "c/d": { input_price: 2, images: true } };
const cases: Record<string, unknown>[] = [
  {},
  { models },
  { models, model: "a/b", providers: { a: { kind: "anthropic" } }, output: { max_bytes: 9 } },
  { models, output: { terminal_cols: 10 } },
  { models, providers: { a: {} }, mcp_servers: { x: { command: "a", url: "http://h/" } } },
  { models: [] },
  { models, unknown_key: 1 },
];

describe("parseMergedConfig", () => {
  it("gives zod's output or zod's issues over the whole, for valid and invalid configs", () => {
    for (const data of cases) {
      const ours = parseMergedConfig(data);
      const zods = configSchema.safeParse(data);
      assert.equal(ours.success, zods.success, JSON.stringify(data));
      if (ours.success) assert.deepEqual(ours.data, zods.data);
      else assert.deepEqual(ours.error?.issues, zods.error?.issues);
    }
  });

  it("takes the merged models table as it is instead of validating it again", () => {
    const big = Object.fromEntries(
      Array.from({ length: 1000 }, (_, i) => [`p/m${i}`, { input_price: i }]),
    );
    const result = parseMergedConfig({ models: big, max_steps: 3 });
    assert.equal(result.data?.models, big);
    assert.equal(result.data?.max_steps, 3);
    assert.deepEqual(Object.keys(result.data ?? {}), Object.keys(configSchema.parse({})));
  });
});

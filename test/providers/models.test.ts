// The model table: prices and context windows for known models, dated snapshots and router
// prefixes resolved, config overrides applied, null for an unknown model, and which models
// take images.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  contextWindowOf,
  costOf,
  MODEL_TABLE_DATE,
  modelInfo,
  takesImages,
} from "../../src/providers/models.ts";
import type { Usage } from "../../src/session/events.ts";

const MILLION: Usage = { input: 1_000_000, output: 0, cache_read: 0, cache_write: 0, reasoning: 0 };
const close = (actual: number | null, expected: number) =>
  assert.ok(actual !== null && Math.abs(actual - expected) < 1e-9, `${actual} ≠ ${expected}`);

describe("model table", () => {
  it("is dated", () => {
    assert.match(MODEL_TABLE_DATE, /^\d{4}-\d{2}-\d{2}$/);
  });

  it("prices input, output, cache read and cache write separately", () => {
    const usage: Usage = {
      input: 1000,
      output: 2000,
      cache_read: 10_000,
      cache_write: 4000,
      reasoning: 500,
    };
    // claude-sonnet-4-5: $3 in, $15 out, $0.30 cache read, $3.75 cache write per million.
    close(
      costOf("claude-sonnet-4-5", usage),
      (1000 * 3 + 2000 * 15 + 10_000 * 0.3 + 4000 * 3.75) / 1e6,
    );
  });

  it("knows the current Anthropic and OpenAI families", () => {
    close(costOf("claude-opus-4-5", MILLION), 5);
    close(costOf("claude-haiku-4-5", MILLION), 1);
    close(costOf("gpt-5", MILLION), 1.25);
    close(costOf("gpt-5-mini", MILLION), 0.25);
    close(costOf("gpt-4.1", MILLION), 2);
    close(costOf("o4-mini", MILLION), 1.1);
    assert.equal(contextWindowOf("gpt-4.1-mini"), 1_047_576);
    assert.equal(contextWindowOf("claude-opus-4-1"), 200_000);
    assert.equal(contextWindowOf("gpt-5"), 400_000);
  });

  it("resolves dated snapshots and router-style ids", () => {
    close(costOf("claude-sonnet-4-5-20250929", MILLION), 3);
    close(costOf("gpt-4.1-2025-04-14", MILLION), 2);
    close(costOf("anthropic/claude-sonnet-4.5", MILLION), 3);
    close(costOf("openai/gpt-5", MILLION), 1.25);
  });

  it("knows which models take images: Claude, the OpenAI table but its text-only ones, an override first", () => {
    assert.equal(takesImages("claude-anything-new", "anthropic"), true);
    assert.equal(takesImages("gpt-4.1-2025-04-14", "openai-responses"), true);
    assert.equal(takesImages("o3-mini", "openai-responses"), false);
    assert.equal(takesImages("llama3", "openai-chat"), false);
    const overrides = { "local/llama3": { images: true }, "claude-x": { images: false } };
    assert.equal(takesImages("llama3", "openai-chat", { provider: "local", overrides }), true);
    assert.equal(takesImages("claude-x", "anthropic", { provider: "anthropic", overrides }), false);
  });

  it("gives null for an unknown model", () => {
    assert.equal(costOf("llama3.2:3b", MILLION), null);
    assert.equal(contextWindowOf("llama3.2:3b"), null);
    assert.equal(modelInfo("llama3.2:3b"), null);
  });

  it("applies overrides keyed provider/model before bare model ids", () => {
    const overrides = {
      "ollama/llama3.2:3b": { context_window: 131_072, input_price: 0, output_price: 0 },
      "anthropic/claude-sonnet-4-5": { input_price: 2 },
      "gpt-5": { context_window: 272_000 },
    };
    assert.equal(costOf("llama3.2:3b", MILLION, { provider: "ollama", overrides }), 0);
    assert.equal(contextWindowOf("llama3.2:3b", { provider: "ollama", overrides }), 131_072);
    assert.equal(costOf("llama3.2:3b", MILLION, { provider: "other", overrides }), null);
    close(costOf("claude-sonnet-4-5", MILLION, { provider: "anthropic", overrides }), 2);
    close(
      costOf("claude-sonnet-4-5", { ...MILLION, input: 0, output: 1_000_000 }, { overrides }),
      15,
    );
    assert.equal(contextWindowOf("gpt-5", { overrides }), 272_000);
    close(costOf("gpt-5", MILLION, { overrides }), 1.25);
  });

  it("treats an override with only a context window as unpriced for an unknown model", () => {
    const overrides = { "local/m": { context_window: 8192 } };
    assert.equal(costOf("m", MILLION, { provider: "local", overrides }), null);
    assert.equal(contextWindowOf("m", { provider: "local", overrides }), 8192);
  });
});

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  configFileSchema,
  configSchema,
  EFFORT_LEVELS,
  HOOK_EVENTS,
} from "../../src/config/schema.ts";
import { EFFORT_LEVELS as LOGGED_EFFORTS } from "../../src/session/events.ts";

describe("configSchema", () => {
  it("thinking.effort takes exactly the words session/effort records", () => {
    assert.deepEqual([...EFFORT_LEVELS], [...LOGGED_EFFORTS]);
    assert.equal(configSchema.parse({ thinking: { effort: "high" } }).thinking.effort, "high");
    assert.throws(() => configSchema.parse({ thinking: { effort: "extreme" } }));
  });

  it("display.idle_prompt_ms stops at the longest timer Node keeps (a longer one fires at once)", () => {
    const max = 2 ** 31 - 1;
    assert.equal(
      configSchema.parse({ display: { idle_prompt_ms: max } }).display.idle_prompt_ms,
      max,
    );
    assert.throws(() => configSchema.parse({ display: { idle_prompt_ms: max + 1 } }));
  });

  it("fills every section with its defaults from an empty table", () => {
    const config = configSchema.parse({});
    assert.equal(config.model, "anthropic/claude-sonnet-4-6");
    assert.equal(config.max_steps, 50);
    assert.deepEqual(config.retry, {
      max_retries: 6,
      initial_delay_ms: 500,
      max_delay_ms: 8000,
      budget_ms: 30000,
      stream_idle_timeout_ms: 300000,
    });
    assert.deepEqual(config.output, {
      max_bytes: 30000,
      spill_to_temp: true,
      redact_secrets: true,
      gcf: false,
      terminal_cols: 0,
      terminal_rows: 24,
      tools: {},
    });
    assert.deepEqual(config.permissions, {
      mode: "default",
      allow: [],
      ask: [],
      deny: [],
      unprotect: [],
    });
    assert.deepEqual(Object.keys(config.hooks), [...HOOK_EVENTS]);
    assert.deepEqual(config.tools, { external: [] });
    assert.deepEqual(config.thinking, {});
    assert.deepEqual(config.trusted_projects, []);
  });

  it("accepts a full example of every section", () => {
    const result = configSchema.safeParse({
      model: "ollama/qwen3-coder",
      max_budget_usd: 2.5,
      providers: { ollama: { kind: "openai-chat", base_url: "http://127.0.0.1:11434/v1" } },
      models: { "ollama/qwen3-coder": { context_window: 32768, input_price: 0 } },
      thinking: { budget_tokens: 4096 },
      output: { tools: { bash: { max_bytes: 1000, gcf: true } } },
      permissions: { mode: "plan", deny: ["bash(rm *)"] },
      hooks: { PreToolUse: [{ matcher: "bash", command: "./guard.sh", on_error: "deny" }] },
      tools: {
        external: [
          {
            name: "jira",
            description: "Search issues",
            command: ["jira", "search"],
            arguments: { type: "object", properties: { query: { type: "string" } } },
          },
        ],
      },
    });
    assert.equal(result.success, true, JSON.stringify(result.error?.issues));
  });

  it("requires a provider kind in the effective config but not in one file", () => {
    const provider = { providers: { anthropic: { base_url: "http://localhost:1" } } };
    assert.equal(configSchema.safeParse(provider).success, false);
    assert.equal(configFileSchema.safeParse(provider).success, true);
  });

  it("rejects a model that is not provider/model", () => {
    assert.equal(configSchema.safeParse({ model: "claude" }).success, false);
  });
});

// The compiled check of a config file against zod, over seeded generated configs: valid ones of
// every section (refines, URLs, patterns, the JSON of tool arguments and the trimmed protected
// paths included) and random deep mutations of them. The check must accept every valid one and
// never accept what zod rejects; it must agree with zod except where it is stricter by design.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { compileCheck } from "../../src/compiled-check.ts";
import { configFileCheck } from "../../src/config/file-check.ts";
import { configFileSchema, HOOK_EVENTS, PERMISSION_MODES } from "../../src/config/schema.ts";

const SEED = 11;
const word = fc.constantFrom("a", "b", "x_y", "local", "gpt-5", "ollama", "__proto__", "toString");
/** Mostly a valid value, sometimes one zod rejects (about a third of configs stay valid). */
const either = <T, U>(valid: fc.Arbitrary<T>, invalid: fc.Arbitrary<U>) =>
  fc.oneof({ arbitrary: valid, weight: 200 }, { arbitrary: invalid, weight: 1 });
const pick = <T, U>(valid: T[], invalid: U[]) =>
  either(fc.constantFrom(...valid), fc.constantFrom(...invalid));
const modelId = either(
  fc.tuple(word, word).map(([a, b]) => `${a}/${b}`),
  fc.constantFrom("noslash", "a/ b", "/x", "a/"),
);
const count = either(fc.integer({ min: 1, max: 100_000 }), fc.constantFrom(0, -1, 0.5, 2 ** 60));
const number = either(
  fc.double({ min: 0.1, max: 1, noNaN: true }),
  fc.constantFrom(-0.5, 1.5, Number.NaN, Number.POSITIVE_INFINITY),
);
const url = pick(["http://127.0.0.1:1/v1", "https://u:p@h/"], ["ftp://h/", "not a url", ""]);
const strings = fc.array(pick(["bash(git status:*)", "read(.env)", "x"], [" ", 1]), {
  maxLength: 3,
});
const strip = (table: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(table).filter(([, value]) => value !== undefined));
const table = <T extends Record<string, fc.Arbitrary<unknown>>>(
  fields: T,
  requiredKeys: (keyof T & string)[] = [],
) => fc.record(fields, { requiredKeys }).map(strip);

const provider = table({
  kind: pick(["anthropic", "openai-chat", "openai-responses"], ["other"]),
  base_url: url,
  api_key_env: pick(["MY_KEY", "_K1"], ["1BAD", "A-B"]),
  headers: fc.dictionary(word, either(fc.string({ maxLength: 3 }), fc.nat())),
});
const model = table({
  context_window: count,
  input_price: number,
  output_price: number,
  compaction_threshold: number,
  images: either(fc.boolean(), fc.constant("yes")),
});
const mcpServer = table({
  command: pick(["srv"], [""]),
  args: strings,
  env: fc.dictionary(word, fc.string({ maxLength: 3 })),
  enabled: fc.boolean(),
  startup_timeout_ms: count,
});
/** A stdio or an HTTP server; rarely both or neither (the schema's refine). */
const mcpServerOfOneKind = fc
  .tuple(mcpServer, url, fc.nat({ max: 40 }))
  .map(([server, address, roll]) => {
    const { command, ...rest } = server as Record<string, unknown>;
    if (roll === 0) return { ...rest, command: "srv", url: address };
    if (roll === 1) return rest;
    return roll % 2 === 0 ? { ...rest, command: command ?? "srv" } : { ...rest, url: address };
  });
const external = table(
  {
    name: pick(["lint", "a-b_1"], ["bad name", ""]),
    description: fc.string({ maxLength: 4 }),
    command: strings.filter((list) => list.length > 0),
    arguments: fc.dictionary(word, fc.jsonValue({ maxDepth: 2 })),
  },
  ["name", "description", "command"],
);
const hook = table(
  {
    matcher: fc.constantFrom("Bash", "*"),
    command: pick(["echo hi"], [""]),
    timeout_ms: count,
    on_error: pick(["allow", "deny"], ["maybe"]),
  },
  ["command"],
);
const config = table({
  model: modelId,
  max_steps: count,
  session_dir: pick(["/tmp/s", ""], [1]),
  max_budget_usd: number,
  providers: fc.dictionary(word, provider, { maxKeys: 3 }),
  models: fc.dictionary(modelId, model, { maxKeys: 4 }),
  output: table({
    max_bytes: count,
    terminal_cols: pick([0, 20, 80, 1000], [10, 1001, -1, 1.5]),
    terminal_rows: pick([2, 24, 500], [1, 501]),
    tools: fc.dictionary(word, table({ max_bytes: count, gcf: fc.boolean() }), { maxKeys: 2 }),
  }),
  permissions: table({
    mode: pick([...PERMISSION_MODES], ["yolo"]),
    allow: strings,
    deny: strings,
  }),
  hooks: table(
    Object.fromEntries(HOOK_EVENTS.map((event) => [event, fc.array(hook, { maxLength: 2 })])),
  ),
  tools: table({ external: fc.array(external, { maxLength: 2 }) }),
  mcp_servers: fc.dictionary(pick(["fs", "git-1", "x_y"], ["a__b"]), mcpServerOfOneKind, {
    maxKeys: 2,
  }),
  trusted_projects: fc.array(
    fc.oneof(
      pick(["/p"], [1]),
      table({
        path: pick(["/p"], [""]),
        fingerprint: pick([`sha256:${"a".repeat(64)}`], ["x"]),
      }),
    ),
    { maxLength: 2 },
  ),
  protected_paths: strings,
});

/** A value for a mutation: JSON of any shape and the few non-JSON values TOML can yield. */
const mutationValue = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constant(new Date(0)),
  fc.constant(Number.POSITIVE_INFINITY),
  fc.constantFrom("anthropic", "http://h/", "a/b", " ", 0, 1, 20, true, [], {}),
);
const keys = fc.constantFrom(
  ...["model", "providers", "models", "output", "tools", "external", "mcp_servers", "hooks"],
  ...["kind", "base_url", "command", "url", "terminal_cols", "arguments", "a/b", "x", "0"],
);

function mutate(value: unknown, path: (string | number)[], replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const [head, ...rest] = path as [string | number, ...(string | number)[]];
  if (Array.isArray(value)) {
    const copy = [...value];
    const at = typeof head === "number" ? head % (copy.length + 1) : copy.length;
    copy[at] = mutate(copy[at], rest, replacement);
    return copy;
  }
  if (typeof value !== "object" || value === null || value instanceof Date) return value;
  const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  copy[String(head)] = mutate(copy[String(head)], rest, replacement);
  return copy;
}

describe("the compiled config file check", () => {
  const check = configFileCheck();

  it("is compiled, and agrees with zod on generated configs of every section", () => {
    assert.ok(check, "configFileSchema compiles");
    let accepted = 0;
    let runs = 0;
    fc.assert(
      fc.property(config, (data) => {
        const zod = configFileSchema.safeParse(data).success;
        const compiled = check(data);
        // Stricter by design: zod passes over a `__proto__` key's value, the check does not.
        const stricter = !compiled && JSON.stringify(data).includes('"__proto__":');
        if (!stricter) assert.equal(compiled, zod, JSON.stringify(data));
        runs++;
        if (compiled) accepted++;
      }),
      { seed: SEED, numRuns: 400 },
    );
    // Both verdicts occur often enough for the agreement to mean something.
    assert.ok(accepted > runs / 10 && accepted < runs, `${accepted} of ${runs} accepted`);
  });

  it("never accepts what zod rejects after random deep mutations", () => {
    const mutation = fc.record({
      path: fc.array(fc.oneof(keys, fc.nat({ max: 2 })), { minLength: 1, maxLength: 4 }),
      value: mutationValue,
    });
    fc.assert(
      fc.property(config, fc.array(mutation, { minLength: 1, maxLength: 3 }), (data, changes) => {
        let changed: unknown = data;
        for (const { path, value } of changes) changed = mutate(changed, path, value);
        if (check?.(changed)) {
          const result = configFileSchema.safeParse(changed);
          assert.ok(result.success, `accepted what zod rejects: ${JSON.stringify(changed)}`);
        }
      }),
      { seed: SEED, numRuns: 1000 },
    );
  });

  it("leaves what JSON Schema cannot say to zod: refines, trims and URLs", () => {
    assert.equal(check?.({ output: { terminal_cols: 10 } }), false);
    assert.equal(check?.({ output: { terminal_cols: 80 } }), true);
    assert.equal(check?.({ mcp_servers: { fs: { command: "a", url: "http://h/" } } }), false);
    assert.equal(check?.({ protected_paths: [" "] }), false);
    assert.equal(check?.({ providers: { p: { base_url: "not a url" } } }), false);
    assert.equal(check?.({ providers: { p: { base_url: "http://h/" } } }), true);
    assert.equal(check?.({ models: { noslash: {} } }), false);
    // zod takes a TOML date for a table; so may the check (never for a record: zod does not).
    const dated = { models: { "a/b": new Date(0) } };
    assert.equal(check?.(dated), configFileSchema.safeParse(dated).success);
    assert.equal(check?.({ models: new Date(0) }), false);
  });

  it("gives no check, without a zod fallback, for a schema it cannot say exactly", async () => {
    const { z } = await import("zod");
    const refined = z.strictObject({ n: z.number().refine((n) => n !== 3) });
    assert.equal(compileCheck(refined), null);
    assert.equal(compileCheck(refined, { zodFallback: true })?.({ n: 3 }), false);
    assert.equal(compileCheck(refined, { zodFallback: true })?.({ n: 4 }), true);
  });
});

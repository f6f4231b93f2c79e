import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { formatKeyPath, parseKeyPath } from "../../src/config/key-path.ts";
import {
  type ConfigLayer,
  mergeLayers,
  type Table,
  walkLeaves,
  withoutUndefined,
} from "../../src/config/merge.ts";

describe("mergeLayers", () => {
  it("lets a later layer win key by key inside tables", () => {
    const merged = mergeLayers([
      { source: "default", data: { retry: { max_retries: 6, budget_ms: 1 } } },
      { source: "/u/config.toml", data: { retry: { max_retries: 2 } } },
      { source: "flag", data: { model: "openai/gpt-5" } },
    ]);
    assert.deepEqual(merged.data, {
      retry: { max_retries: 2, budget_ms: 1 },
      model: "openai/gpt-5",
    });
    assert.deepEqual(Object.fromEntries(merged.sources), {
      "retry.max_retries": "/u/config.toml",
      "retry.budget_ms": "default",
      model: "flag",
    });
  });

  it("replaces arrays whole instead of concatenating", () => {
    const merged = mergeLayers([
      { source: "user", data: { permissions: { allow: ["a", "b"] } } },
      { source: "project", data: { permissions: { allow: ["c"] } } },
    ]);
    assert.deepEqual(merged.data, { permissions: { allow: ["c"] } });
    assert.equal(merged.sources.get("permissions.allow"), "project");
  });

  it("forgets the sources of a table a scalar replaced", () => {
    const merged = mergeLayers([
      { source: "user", data: { thinking: { budget_tokens: 5 } } },
      { source: "flag", data: { thinking: 3 } },
    ]);
    assert.deepEqual(Object.fromEntries(merged.sources), { thinking: "flag" });
  });

  it("forgets every leaf of a nested table a scalar replaced, and keeps its siblings'", () => {
    const merged = mergeLayers([
      { source: "user", data: { a: { b: { c: 1, d: [2] }, e: {} }, f: { g: 1 } } },
      { source: "flag", data: { a: 3 } },
    ]);
    assert.deepEqual(Object.fromEntries(merged.sources), { "f.g": "user", a: "flag" });
  });

  it("merges 20,000 tables over 20,000 tables keeping every source (linear, not quadratic)", () => {
    const user: Record<string, unknown> = {};
    const project: Record<string, unknown> = {};
    for (let i = 0; i < 20_000; i++) {
      user[`m${i}`] = { a: i, b: i };
      project[`m${i}`] = i % 2 === 0 ? { a: -i } : 5;
    }
    const merged = mergeLayers([
      { source: "user", data: { models: user } },
      { source: "project", data: { models: project } },
    ]);
    assert.equal(merged.sources.get("models.m0.a"), "project");
    assert.equal(merged.sources.get("models.m0.b"), "user");
    assert.equal(merged.sources.get("models.m1"), "project");
    assert.equal(merged.sources.get("models.m1.a"), undefined);
    assert.equal(merged.sources.size, 10_000 * 2 + 10_000);
  });

  it("skips undefined values, so unset flags do not override files", () => {
    const merged = mergeLayers([
      { source: "user", data: { model: "a/b" } },
      { source: "flag", data: { model: undefined } },
    ]);
    assert.deepEqual(merged.data, { model: "a/b" });
    assert.equal(merged.sources.get("model"), "user");
  });

  it("takes a table only one layer sets whole, never visiting its keys (linear in what overlaps)", () => {
    const untouchable = new Proxy<Table>(
      {},
      {
        ownKeys: () => assert.fail("the merge listed the keys of a table only one layer sets"),
        get: () => assert.fail("the merge read a table only one layer sets"),
      },
    );
    const merged = mergeLayers([
      { source: "default", data: { providers: { a: { kind: "anthropic" } } } },
      { source: "user", data: { models: untouchable, providers: { b: { kind: "openai-chat" } } } },
    ]);
    assert.equal(merged.data.models, untouchable);
    assert.deepEqual(Object.keys(merged.data.providers as Table), ["a", "b"]);
  });

  it("strips the flags' undefined values at any depth, keeping every other key as data", () => {
    const flags = JSON.parse('{"__proto__": {"x": 1}}') as Table;
    Object.assign(flags, { model: undefined, output: { max_bytes: undefined, gcf: true } });
    const clean = withoutUndefined(flags);
    assert.deepEqual(Object.keys(clean), ["__proto__", "output"]);
    assert.deepEqual(clean.output, { gcf: true });
    assert.equal(Object.getPrototypeOf(clean), Object.prototype);
  });

  it("quotes key segments that are not bare keys", () => {
    const merged = mergeLayers([
      { source: "user", data: { models: { "openai/gpt-4.1": { input_price: 2 } } } },
    ]);
    assert.deepEqual([...merged.sources.keys()], ['models."openai/gpt-4.1".input_price']);
  });
});

describe("mergeLayers sharing and on-demand sources", () => {
  it("never modifies a layer, even where a higher layer merges into a table it shares", () => {
    const user = { retry: { max_retries: 1 }, models: { "a/b": { input_price: 1 } } };
    const project = { models: { "a/b": { output_price: 2 } } };
    const before = JSON.stringify([user, project]);
    const merged = mergeLayers([
      { source: "user", data: user },
      { source: "project", data: project },
    ]);
    assert.equal(JSON.stringify([user, project]), before);
    assert.deepEqual(merged.data.models, { "a/b": { input_price: 1, output_price: 2 } });
    assert.equal(merged.data.retry, user.retry, "a table only one layer sets is shared");
  });

  it("answers every key exactly as the full listing does, on random layers", () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const names = ["a", "b", "c", "x/y", "d e"];
    const value = (depth: number): unknown => {
      const roll = random();
      if (depth > 2 || roll < 0.35) return Math.floor(random() * 9);
      if (roll < 0.45) return [1, 2];
      if (roll < 0.5) return {};
      // Layers hold undefined only at their top (flags; load.ts strips deeper ones).
      if (roll < 0.55) return depth === 0 ? undefined : Math.floor(random() * 9);
      return table(depth + 1);
    };
    const table = (depth: number): Table => {
      const out: Table = {};
      for (const name of names) if (random() < 0.5) out[name] = value(depth);
      return out;
    };
    for (let round = 0; round < 300; round++) {
      const layers: ConfigLayer[] = ["default", "user", "project", "flag"].map((source) => ({
        source,
        data: table(0),
      }));
      const merged = mergeLayers(layers);
      const probes: string[] = [];
      walkLeaves(
        layers.map((layer) => layer.data),
        (path) => {
          const keys = path.slice(1).filter((segment) => typeof segment === "string");
          for (let n = 1; n <= keys.length; n++) probes.push(formatKeyPath(keys.slice(0, n)));
        },
      );
      const lazy = probes.map((key) => merged.sources.get(key));
      const listed = new Map(merged.sources);
      assert.deepEqual(
        lazy,
        probes.map((key) => listed.get(key)),
        `round ${round}`,
      );
      const leaves: string[] = [];
      walkLeaves(merged.data, (_path, _leaf, key) => leaves.push(key));
      assert.deepEqual([...listed.keys()].sort(), leaves.sort(), `round ${round}: one per leaf`);
    }
  });

  it("reads back every key path it formats, and refuses what it cannot have written", () => {
    for (const path of [["model"], ["models", "openai/gpt-4.1", "input_price"], ['a"b', "c.d"]]) {
      assert.deepEqual(parseKeyPath(formatKeyPath(path)), path);
    }
    for (const bad of ["", "a.", ".a", 'a."b', "hooks.PreToolUse[0]", "a b"]) {
      assert.equal(parseKeyPath(bad), undefined, bad);
    }
  });
});

describe("walkLeaves", () => {
  it("visits scalars, whole arrays and empty tables", () => {
    const seen: string[] = [];
    walkLeaves({ a: 1, b: { c: [1, 2], d: {} }, e: undefined }, (path, value) =>
      seen.push(`${path.join(".")}=${JSON.stringify(value)}`),
    );
    assert.deepEqual(seen, ["a=1", "b.c=[1,2]", "b.d={}"]);
  });
});

describe("mergeLayers and a `__proto__` key (a hostile project file)", () => {
  it("keeps it an own member: no table of the merge gets a prototype from a layer", () => {
    const project = JSON.parse(
      '{"models": {"__proto__": {"anthropic/x": {"context_window": 5}}}, "__proto__": {"mode": "bypass"}}',
    ) as Table;
    const merged = mergeLayers([
      { source: "default", data: { models: { "openai/y": { context_window: 9 } } } },
      { source: "/p/.codewhale/config.toml", data: project },
    ]);
    const models = merged.data.models as Table;
    assert.equal(Object.getPrototypeOf(models), Object.prototype);
    assert.equal(Object.getPrototypeOf(merged.data), Object.prototype);
    assert.equal(models["anthropic/x"], undefined, "nothing inherited");
    assert.equal((merged.data as Record<string, unknown>).mode, undefined);
    assert.deepEqual(Object.keys(models).sort(), ["__proto__", "openai/y"]);
  });
});

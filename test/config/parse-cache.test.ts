// The cache of big config files: a table is stored 0600 under $CODEWHALE_HOME/cache/config and
// read back only for the very text it was made from; an entry that is a link, open to others,
// corrupt or made for other text is a miss; an edit after caching gets exactly the problems a
// load without any cache gets.
import assert from "node:assert/strict";
import {
  chmodSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import { inspectConfig, loadConfig } from "../../src/config/index.ts";
import { cachedParse, storeParse, writePendingParses } from "../../src/config/parse-cache.ts";
import { modelTables } from "./support/big-config.ts";
import { createLayout, type TempLayout } from "./support/temp-config.ts";

describe("the parsed config cache", () => {
  let layout: TempLayout;
  let cache: string;
  beforeEach(() => {
    layout = createLayout();
    cache = join(layout.home, "cache");
  });
  afterEach(() => layout.cleanup());

  /** The cache entries, once the writes a load leaves for exit are done. */
  const entries = () => {
    writePendingParses();
    return readdirSync(join(cache, "config")).map((name) => join(cache, "config", name));
  };

  it("stores a big valid file's table 0600 and serves it only for the same text", () => {
    const text = modelTables(1_700);
    layout.writeUser(text);
    const first = loadConfig({ cwd: layout.root, env: layout.env() });
    const [entry, ...others] = entries();
    assert.ok(entry, "a cache entry is written");
    assert.equal(others.length, 0);
    assert.equal(statSync(entry).mode & 0o777, 0o600);
    assert.equal(statSync(join(cache, "config")).mode & 0o777, 0o700);
    // Compared as JSON: tables read back are ordinary objects, smol-toml's have no prototype.
    const json = (value: unknown) => JSON.stringify(value);
    const cached = cachedParse(cache, layout.userFile, text);
    assert.ok(json(cached) === json(first.layers[0]?.data), "the entry is the parsed table");
    assert.equal(cachedParse(cache, layout.userFile, `${text}\n`), undefined, "other text");
    assert.equal(cachedParse(cache, join(layout.root, "other.toml"), text), undefined);
    const again = loadConfig({ cwd: layout.root, env: layout.env() });
    assert.ok(json(again.config) === json(first.config), "the same config from the cache");
    assert.equal(again.sources.get('models."anthropic/model-1699".input_price'), layout.userFile);
  });

  it("after an edit that breaks a cached file, reports exactly what a load with no cache does", () => {
    layout.writeUser(modelTables(1_700));
    loadConfig({ cwd: layout.root, env: layout.env() });
    layout.writeUser(modelTables(1_700, 1_000));
    const withCache = inspectConfig({ cwd: layout.root, env: layout.env() });
    rmSync(cache, { recursive: true });
    const without = inspectConfig({ cwd: layout.root, env: layout.env() });
    const lines = (report: typeof without) => report.problems.map((problem) => problem.message);
    assert.deepEqual(lines(withCache), lines(without));
    assert.deepEqual(lines(without), [
      `${layout.userFile}:5002: key "models."anthropic/model-1000".context_window": expected number, received string`,
    ]);
    assert.throws(() => entries(), "an invalid file is never cached");
  });

  it("keeps a trusted big project file trusted when its table comes from the cache", () => {
    layout.writeProject(`[permissions]\nmode = "bypass"\n${modelTables(1_700)}`);
    const cold = loadConfig({ cwd: layout.nested, env: layout.env() });
    assert.equal(cold.trust.state, "untrusted");
    const entry = { path: layout.project, fingerprint: cold.trust.fingerprint };
    layout.writeUser(
      `trusted_projects = [${JSON.stringify(entry).replace(/"(\w+)":/g, "$1 = ")}]\n`,
    );
    const trusted = loadConfig({ cwd: layout.nested, env: layout.env() });
    assert.equal(entries().length, 1, "the project file's parse is cached");
    const warm = loadConfig({ cwd: layout.nested, env: layout.env() });
    assert.equal(trusted.trust.state, "trusted");
    assert.equal(warm.trust.state, "trusted");
    assert.equal(warm.trust.fingerprint, cold.trust.fingerprint);
    assert.equal(warm.config.permissions.mode, "bypass");
  });

  it("takes an entry that is a link, open to others, corrupt or another file's as a miss", () => {
    const text = modelTables(1_700);
    layout.writeUser(text);
    const data = { models: { "a/b": { input_price: 1 } } };
    storeParse(cache, layout.userFile, text, data);
    const [entry] = entries();
    assert.ok(entry);
    assert.deepEqual(cachedParse(cache, layout.userFile, text), data);
    chmodSync(entry, 0o644);
    assert.equal(cachedParse(cache, layout.userFile, text), undefined, "readable by others");
    chmodSync(entry, 0o600);
    const real = join(layout.root, "elsewhere");
    writeFileSync(real, "", { mode: 0o600 });
    rmSync(entry);
    symlinkSync(real, entry);
    assert.equal(cachedParse(cache, layout.userFile, text), undefined, "a link");
    rmSync(entry);
    writeFileSync(entry, `${"0".repeat(64)}\n{"models":`, { mode: 0o600 });
    assert.equal(cachedParse(cache, layout.userFile, text), undefined, "corrupt");
    // Another file's entry copied into this one's place: its key is for the other text.
    storeParse(cache, layout.projectFile, "other", data);
    const other = entries().find((path) => path !== entry);
    assert.ok(other);
    writeFileSync(entry, readFileSync(other), { mode: 0o600 });
    assert.equal(cachedParse(cache, layout.userFile, text), undefined, "another file's");
    assert.deepEqual(cachedParse(cache, layout.projectFile, "other"), data);
  });

  it("never stores a table JSON would change (-0, a date)", () => {
    storeParse(cache, layout.userFile, "a", { models: { "a/b": { input_price: -0 } } });
    storeParse(cache, layout.userFile, "b", { thinking: new Date(0) });
    assert.throws(() => entries(), "nothing was written");
  });
});

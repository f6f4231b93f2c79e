// Which test files share one Node process in a run of scripts/test.mjs (scripts/test-batches.mjs):
// the classifier keeps alone a file that touches process-wide state, itself or through a file it
// imports; the cheap rest are packed into batch modules that Node's real runner runs one file's
// tests after another, failures still named at the real file.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { tempDir } from "../support/session-fixtures.ts";

interface Plan {
  single: string[];
  batches: string[][];
}
const batchesModule = new URL("../../scripts/test-batches.mjs", import.meta.url).href;
const { whyAlone, planBatches, writeBatches } = (await import(batchesModule)) as {
  whyAlone(file: string, within?: string): string | null;
  planBatches(
    files: string[],
    cost: (file: string) => number,
    alone?: (file: string) => string | null,
  ): Plan;
  writeBatches(
    plan: Plan,
    bundled: (file: string) => string,
    cost: (file: string) => number,
    bundleDir: string,
  ): string[];
};

const HEAD = 'import { test } from "node:test";\n';

/** Writes `files` (name → source) into a new temp dir; returns their paths by name. */
function fixtures(files: Record<string, string>): { dir: string; path: (name: string) => string } {
  const dir = tempDir("cw-batches-");
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return { dir, path: (name) => join(dir, name) };
}

/** Node's own runner on `paths`, outside this test's runner (whose context it would report to). */
function runNodeTests(paths: string[], cwd: string) {
  const { NODE_TEST_CONTEXT: _, ...env } = process.env;
  return spawnSync(process.execPath, ["--test", "--test-reporter=spec", ...paths], {
    cwd,
    encoding: "utf8",
    env,
  });
}

describe("the files that may share a test process", () => {
  it("refuses a file for each kind of process-wide state it touches", () => {
    const uses: Record<string, string> = {
      "root-before": "before(() => {});",
      "before-each": 'describe("s", () => { beforeEach(() => {}); });',
      "after-each": "afterEach(() => {});",
      "env-set": 'test("t", () => { process.env.CANARY = "1"; });',
      "env-index": 'process.env["CANARY"] ??= "1";',
      "env-delete": "delete process.env.HOME;",
      "env-assign": 'Object.assign(process.env, { CANARY: "1" });',
      chdir: 'process.chdir("/");',
      umask: "process.umask(0o077);",
      "mock-method": 'test("t", (t) => { t.mock.method(console, "log"); });',
      "mock-timers": "mock.timers.enable();",
      "mock-module": 'mock.module("node:fs", {});',
      handler: 'process.on("warning", () => {});',
      "exit-code": "process.exitCode = 1;",
      exit: "process.exit(0);",
      "console-swap": "console.warn = () => {};",
      "global-swap": "globalThis.fetch = async () => new Response();",
      "date-now": "Date.now = () => 0;",
      "result-order": 'setDefaultResultOrder("ipv4first");',
    };
    const { dir, path } = fixtures(
      Object.fromEntries(Object.entries(uses).map(([n, use]) => [`${n}.test.mjs`, HEAD + use])),
    );
    for (const name of Object.keys(uses)) {
      assert.notEqual(whyAlone(path(`${name}.test.mjs`), dir), null, `${name} shares a process`);
    }
  });

  it("refuses a file whose imported support file changes the environment, and names it", () => {
    const { dir, path } = fixtures({
      "support.mjs": 'export const home = (process.env.HOME = "/tmp");\n',
      "user.test.mjs": `${HEAD}import { home } from "./support.mjs";\ntest("t", () => home);\n`,
    });
    assert.match(
      whyAlone(path("user.test.mjs"), dir) ?? "",
      /^a process\.env change in .*\/support\.mjs$/,
    );
  });

  it("lets share a file that only reads the environment, cleans up after all, or drives the mock provider", () => {
    const { dir, path } = fixtures({
      "plain.test.mjs": `${HEAD}import { after } from "node:test";
const home = process.env.HOME ?? "";
after(() => {});
const mock = { enqueue() {} };
test("reads", () => { mock.enqueue(); if (process.env.CI === "1") return home; });
`,
    });
    assert.equal(whyAlone(path("plain.test.mjs"), dir), null);
  });

  it("batches only cheap files that may share, in path order, and never a run of one file", () => {
    const cost = (file: string) => (file.includes("slow") ? 30 : 0.5);
    const alone = (file: string) => (file.includes("env") ? "a process.env change" : null);
    const files = ["t/slow.test.ts", "t/b.test.ts", "t/env.test.ts", "t/a.test.ts", "t/c.test.ts"];
    const plan = planBatches(files, cost, alone);
    assert.deepEqual(plan.batches, [["t/a.test.ts", "t/b.test.ts", "t/c.test.ts"]]);
    assert.deepEqual(plan.single, ["t/slow.test.ts", "t/env.test.ts"]);
    assert.deepEqual(planBatches(["t/a.test.ts"], cost, alone).batches, []);
  });
});

describe("a batch under Node's runner", () => {
  const files = {
    "a-env.test.mjs": `${HEAD}test("sets the canary", () => { process.env.BATCH_CANARY = "set"; });\n`,
    "b-reads.test.mjs": `${HEAD}import assert from "node:assert/strict";
test("sees no canary", () => { assert.equal(process.env.BATCH_CANARY, undefined); });\n`,
  };

  it("runs a file that sets process.env apart from the file after it, so both pass", () => {
    const { dir, path } = fixtures(files);
    const paths = [path("a-env.test.mjs"), path("b-reads.test.mjs")];
    const cost = () => 0.1;
    const plan = planBatches(paths, cost, (file) => whyAlone(file, dir));
    assert.deepEqual(plan.batches, []);
    const run = runNodeTests(
      writeBatches(plan, (f) => f, cost, dir),
      dir,
    );
    assert.equal(run.status, 0, run.stdout);
    assert.match(run.stdout, /ℹ pass 2/);
    // The same two files forced into one process: the second sees the first's canary.
    const forced = planBatches(paths, cost, () => null);
    const together = runNodeTests(
      writeBatches(forced, (f) => f, cost, dir),
      dir,
    );
    assert.match(together.stdout, /ℹ fail 1/);
  });

  it("runs its files' top-level tests one after another and names a failure at its real file", () => {
    const { dir, path } = fixtures({
      "a-busy.test.mjs": `${HEAD}test("holds the flag across turns", async () => {
  globalThis.busy = true;
  for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
  globalThis.busy = false;
});\n`,
      "b-fails.test.mjs": `${HEAD}import assert from "node:assert/strict";
test("starts after the first", () => { assert.equal(globalThis.busy, false); });
test("fails on purpose", () => {
  assert.fail("deliberate");
});\n`,
    });
    const paths = [path("a-busy.test.mjs"), path("b-fails.test.mjs")];
    const cost = () => 0.1;
    const plan = planBatches(paths, cost, () => null);
    assert.equal(plan.batches.length, 1);
    const run = runNodeTests(
      writeBatches(plan, (f) => f, cost, dir),
      dir,
    );
    assert.match(run.stdout, /ℹ pass 2/);
    assert.match(run.stdout, /ℹ fail 1/);
    assert.match(run.stdout, /test at b-fails\.test\.mjs:4:1/);
  });
});

// Runs test/**/*.test.ts with Node's own test runner, bundled by esbuild (test-bundle.mjs; with
// TEST_BUNDLE=0 through tsx) (Node 20 has no glob support in --test, so the files are listed
// here); arguments filter by path substring. First it makes
// sure of the system tools the selected tests need (all of them for a full run) and builds
// dist/ when a selected test runs the CLI; the tests then run in a hermetic environment
// (scripts/test-env.mjs) whose temp dirs all land in one scratch dir removed afterwards.
// Bundled, the cheap files that touch no process-wide state share a process a few at a time
// (scripts/test-batches.mjs); the costly ones run alone and first (scripts/test-costs.mjs).
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { planBatches, writeBatches } from "./test-batches.mjs";
import { bundleTests } from "./test-bundle.mjs";
import { costOf, orderByCost } from "./test-costs.mjs";
import { ensureTools, hermeticEnv, SYSTEM_TOOLS } from "./test-env.mjs";
import { needsOf, selectTests } from "./test-selection.mjs";

const filters = process.argv.slice(2);
// The costliest files start first (scripts/test-costs.json), so the run does not end on one.
const files = orderByCost(selectTests(filters));
// Node's runner given no file searches the whole tree by its own patterns (scripts and fixture
// capture programs included), so a filter that matches nothing stops here.
if (files.length === 0) {
  console.error(
    `no test file's path contains ${filters.map((f) => JSON.stringify(f)).join(" or ")}`,
  );
  process.exit(2);
}
const needs = needsOf(files);

const tools = filters.length === 0 ? Object.keys(SYSTEM_TOOLS) : [...needs.tools];
const missing = ensureTools(tools);
if (missing !== null) {
  console.error(missing);
  process.exit(1);
}

// Tests that run the CLI as a child process use dist/, so build it once here, before any test
// starts (never from inside a test: parallel test files would race on the bundle).
if (needs.dist) {
  const build = spawnSync(process.execPath, ["scripts/build.mjs"], { stdio: "inherit" });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

// Three test files at a time unless TEST_CONCURRENCY says otherwise: on two cores, two lanes
// left the CPU idle a third of the run (tests waiting on child processes, servers and screens).
const concurrency = /^[1-9][0-9]?$/.test(process.env.TEST_CONCURRENCY ?? "")
  ? process.env.TEST_CONCURRENCY
  : "3";
// The test files run bundled (scripts/test-bundle.mjs): each process then loads a few plain
// modules instead of transforming src/ through tsx. TEST_BUNDLE=0 runs the sources through tsx.
const bundled = process.env.TEST_BUNDLE !== "0";
const bundleDir = join(".test-build", String(process.pid));
const runFiles = bundled ? await batched(files, await bundleTests(files, bundleDir)) : files;
const args = [
  ...(bundled ? [] : ["--import", "tsx"]),
  "--test",
  "--test-reporter=spec",
  `--test-concurrency=${concurrency}`,
  ...runFiles,
];
/** The bundled files with the cheap ones that may share a process grouped into batch modules. */
function batched(files, bundledFiles) {
  const cost = costOf();
  const bundledOf = new Map(files.map((file, index) => [file, bundledFiles[index]]));
  const plan = planBatches(files, cost);
  return writeBatches(plan, (file) => bundledOf.get(file), cost, bundleDir);
}

const scratch = mkdtempSync(join(tmpdir(), "codewhale-tests-"));
const env = hermeticEnv(process.env, scratch);
const result = spawnSync(process.execPath, args, { stdio: "inherit", env });
try {
  rmSync(scratch, { recursive: true, force: true });
  if (bundled) rmSync(bundleDir, { recursive: true, force: true });
} catch {
  // Left for the OS to clean; never fails the run.
}
process.exit(result.status ?? 1);

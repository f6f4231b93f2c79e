// Runs test/**/*.test.ts with Node's own test runner through tsx (Node 20 has no glob support
// in --test, so the files are listed here); arguments filter by path substring. First it makes
// sure of the system tools the selected tests need (all of them for a full run) and builds
// dist/ when a selected test runs the CLI; the tests then run in a hermetic environment
// (scripts/test-env.mjs) whose temp dirs all land in one scratch dir removed afterwards.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureTools, hermeticEnv, SYSTEM_TOOLS } from "./test-env.mjs";
import { needsOf, selectTests } from "./test-selection.mjs";

const filters = process.argv.slice(2);
const files = selectTests(filters);
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

// Two test files at a time unless TEST_CONCURRENCY says otherwise (to measure another figure on
// a quiet machine: the terminal tests under tmux are sensitive to load).
const concurrency = /^[1-9][0-9]?$/.test(process.env.TEST_CONCURRENCY ?? "")
  ? process.env.TEST_CONCURRENCY
  : "2";
const args = [
  "--import",
  "tsx",
  "--test",
  "--test-reporter=spec",
  `--test-concurrency=${concurrency}`,
  ...files,
];
const scratch = mkdtempSync(join(tmpdir(), "codewhale-tests-"));
const env = hermeticEnv(process.env, scratch);
const result = spawnSync(process.execPath, args, { stdio: "inherit", env });
try {
  rmSync(scratch, { recursive: true, force: true });
} catch {
  // Left for the OS to clean; never fails the run.
}
process.exit(result.status ?? 1);

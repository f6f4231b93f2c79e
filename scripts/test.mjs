// Builds the CLI, then runs every test/**/*.test.ts with Node's own test runner through tsx. Node 20 has no glob
// support in --test, so the files are listed here. Extra arguments filter by path substring.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

function collect(dir) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== "fixtures" && entry.name !== "support") out.push(...collect(path));
    } else if (entry.name.endsWith(".test.ts")) out.push(path);
  }
  return out;
}

// Tests that run the CLI as a child process use dist/, so build it once here, before any test
// starts (never from inside a test: parallel test files would race on the bundle).
const build = spawnSync(process.execPath, ["scripts/build.mjs"], { stdio: "inherit" });
if (build.status !== 0) process.exit(build.status ?? 1);

const filters = process.argv.slice(2);
const files = collect("test")
  .filter((f) => filters.length === 0 || filters.some((s) => f.includes(s)))
  .sort();
const args = [
  "--import",
  "tsx",
  "--test",
  "--test-reporter=spec",
  "--test-concurrency=2",
  ...files,
];
// Every temp dir a test makes lands in one directory that is removed afterwards.
const scratch = mkdtempSync(join(tmpdir(), "codewhale-tests-"));
const env = { ...process.env, TMPDIR: scratch };
const result = spawnSync(process.execPath, args, { stdio: "inherit", env });
try {
  rmSync(scratch, { recursive: true, force: true });
} catch {
  // Left for the OS to clean; never fails the run.
}
process.exit(result.status ?? 1);

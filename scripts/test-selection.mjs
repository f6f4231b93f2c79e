// Which test files a run of scripts/test.mjs selects, and what they need: dist/ (a file that
// runs the built CLI, i.e. names bin/codewhale or dist/ itself or through a test file it
// imports or starts) and system tools (the `skipWithout("tool")` calls, test/support/system-tools.ts).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

/** Every test/**\/*.test.ts whose path contains one of `filters` (all when none), sorted. */
export function selectTests(filters) {
  return collect("test")
    .filter((f) => filters.length === 0 || filters.some((s) => f.includes(s)))
    .sort();
}

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

const USES_DIST = /bin\/codewhale\.cjs|\brepoRoot\b[^\n]*\bdist\b/;
const TOOL_CALL = /skipWithout\("([a-z]+)"\)/g;
/** Relative paths in quotes: imports, dynamic imports and files a test starts. */
const RELATIVE = /["'`](\.{1,2}\/[^"'`\s]+\.(?:ts|mjs|cjs|js))["'`]/g;

/** What the files need, following their relative references inside test/. */
export function needsOf(files) {
  const needs = { dist: false, tools: new Set() };
  walkReferences(files, (_path, text) => {
    if (USES_DIST.test(text)) needs.dist = true;
    for (const [, tool] of text.matchAll(TOOL_CALL)) needs.tools.add(tool);
    return undefined;
  });
  return needs;
}

/**
 * Visits each of `files` and the files under `within` they reference (imports, dynamic imports
 * and files they start), once each, with its text; the first value other than undefined that
 * `visit` returns ends the walk and is returned (undefined when none). Used by needsOf and
 * test-batches.mjs.
 */
export function walkReferences(files, visit, within = "test") {
  const root = resolve(within);
  const seen = new Set();
  const walk = (path) => {
    if (seen.has(path) || !path.startsWith(root) || !existsSync(path)) return undefined;
    seen.add(path);
    const text = readFileSync(path, "utf8");
    const found = visit(path, text);
    if (found !== undefined) return found;
    for (const [, ref] of text.matchAll(RELATIVE)) {
      const inner = walk(join(dirname(path), ref));
      if (inner !== undefined) return inner;
    }
    return undefined;
  };
  for (const file of files) {
    const found = walk(resolve(file));
    if (found !== undefined) return found;
  }
  return undefined;
}

// Every export under src/ has a user: another src/ file imports it (or re-exports it to one),
// or it belongs to a documented entry (the bundles' entries, src/agent/index.ts). Tests and
// benchmarks importing an export do not count: an export only a test reads is surface nobody
// ships. A scan of the import and export statements (`import * as`, `export *` and `import()`
// count as using every export of the module; `(await import("…")).name` uses `name`).
import assert from "node:assert/strict";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, it } from "node:test";
import { repoRoot } from "./support/repo-root.ts";

const SRC = join(repoRoot, "src");

/** Files whose exports are the product's surface (scripts/build.mjs entries, the agent API). */
const ENTRIES = new Set([
  "src/cli/main.ts",
  "src/cli/launch.ts",
  "src/tui/index.ts",
  "src/tools/mcp/index.ts",
  "src/agent/index.ts",
]);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts") ? [path] : [];
  });
}

interface Scan {
  /** file → names it exports (declared there or re-exported). */
  exported: Map<string, Set<string>>;
  /** "file#name" used by another file; "file#*" for a namespace, `export *` or `import()`. */
  used: Set<string>;
}

const DECLARED =
  /^export\s+(?:declare\s+)?(?:async\s+)?(?:abstract\s+)?(?:function\*?|const|let|var|class|interface|type|enum)\s+([A-Za-z_$][\w$]*)/gm;
const NAMED = /^(import|export)\s+(?:type\s+)?\{([^}]*)\}(?:\s*from\s*"([^"]+)")?/gm;
const WHOLE =
  /^(?:import\s+\*\s+as\s+\w+|export\s+\*)\s+from\s+"([^"]+)"|import\("([^"]+)"\)(?!\)\.)/gm;
/** `(await import("./x.ts")).name` uses `name` alone. */
const DYNAMIC_MEMBER = /\(await import\("([^"]+)"\)\)\.([A-Za-z_$][\w$]*)/g;
const DEFAULT = /^import\s+(?:type\s+)?[A-Za-z_$][\w$]*\s*(?:,\s*\{[^}]*\})?\s+from\s+"([^"]+)"/gm;

/** `a`, `type b`, `c as d` → [imported or local name, exported name]. */
function elements(list: string): Array<[string, string]> {
  return list
    .split(",")
    .map((part) => part.replace(/^\s*type\s+/, "").trim())
    .filter((part) => part !== "")
    .map((part) => {
      const [from = "", as = from] = part.split(/\s+as\s+/);
      return [from.trim(), as.trim()];
    });
}

function scan(files: readonly string[]): Scan {
  const exported = new Map<string, Set<string>>();
  const used = new Set<string>();
  for (const file of files) {
    const text = readFileSync(file, "utf8");
    const names = new Set<string>();
    exported.set(file, names);
    const target = (specifier: string | undefined) =>
      specifier?.startsWith(".") ? resolve(dirname(file), specifier) : undefined;
    for (const match of text.matchAll(DECLARED)) names.add(match[1]!);
    for (const match of text.matchAll(NAMED)) {
      const from = target(match[3]);
      for (const [source, name] of elements(match[2]!)) {
        if (match[1] === "export") names.add(name);
        if (from) used.add(`${from}#${source}`);
      }
    }
    for (const match of text.matchAll(WHOLE)) {
      const from = target(match[1] ?? match[2]);
      if (from) used.add(`${from}#*`);
    }
    for (const match of text.matchAll(DYNAMIC_MEMBER)) {
      const from = target(match[1]);
      if (from) used.add(`${from}#${match[2]}`);
    }
    for (const match of text.matchAll(DEFAULT)) {
      const from = target(match[1]);
      if (from) used.add(`${from}#default`);
    }
  }
  return { exported, used };
}

/**
 * The exports nothing imported when this check came (issue #28): each is to be removed or
 * used. The list may only shrink: a new unused export fails, and so does an entry that is
 * now used or gone (take it off the list).
 */
const BASELINE = join(repoRoot, "test", "fixtures", "unused-exports.txt");

function unusedExports(): string[] {
  const { exported, used } = scan(sourceFiles(SRC));
  const unused: string[] = [];
  for (const [file, names] of exported) {
    const path = relative(repoRoot, file);
    if (ENTRIES.has(path) || used.has(`${file}#*`)) continue;
    for (const name of names) if (!used.has(`${file}#${name}`)) unused.push(`${path}: ${name}`);
  }
  return unused.sort();
}

describe("exports", () => {
  it("every export under src/ is imported by another src/ file or is a documented entry", () => {
    const unused = unusedExports();
    if (process.env.UPDATE_GOLDEN === "1") writeFileSync(BASELINE, `${unused.join("\n")}\n`);
    const known = new Set(readFileSync(BASELINE, "utf8").split("\n").filter(Boolean));
    const added = unused.filter((entry) => !known.has(entry));
    assert.deepEqual(added, [], "exports nothing imports: remove them, or use them");
    const now = new Set(unused);
    const stale = [...known].filter((entry) => !now.has(entry));
    assert.deepEqual(
      stale,
      [],
      `used or removed now: take them off ${relative(repoRoot, BASELINE)}`,
    );
  });
});

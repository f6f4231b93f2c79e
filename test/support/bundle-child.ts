// Bundles a TypeScript child-process script (and the src/ it imports) into one ESM file, so
// that tests starting many children pay milliseconds per start, not tsx's load (seconds on a
// loaded machine). `bundleChild` bundles everything into a temp dir (the crash-safety,
// lock-contention and MCP server children); `bundleEntry` leaves packages to node_modules,
// for the test CLIs that load the provider SDKs as the real CLI does (exec-harness.ts,
// acp-client.ts), once per test process.
import { rmSync } from "node:fs";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildSync } from "esbuild";
import { tempDir } from "./session-fixtures.ts";

/** Bundles `source` (a file URL or path) and returns the path of the runnable `.mjs`. */
export function bundleChild(source: URL): string {
  const outfile = join(tempDir(), `${basename(source.pathname, ".ts")}.mjs`);
  buildSync({
    entryPoints: [source.pathname],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
  });
  return outfile;
}

/** Packages resolve from a bundle here as from the repository's own files. */
const CACHE = fileURLToPath(new URL("../../node_modules/.cache/codewhale-tests/", import.meta.url));
const entries = new Map<string, string>();

/**
 * `source` bundled with its src/ imports and its packages left external, written under
 * node_modules/.cache (so `import "openai"` resolves as from src/) and removed when this
 * process exits; the same path for every call in one process.
 */
export function bundleEntry(source: URL): string {
  const known = entries.get(source.href);
  if (known) return known;
  const outfile = join(CACHE, `${basename(source.pathname, ".ts")}-${process.pid}.mjs`);
  buildSync({
    entryPoints: [fileURLToPath(source)],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    packages: "external",
    logLevel: "silent",
  });
  if (entries.size === 0) process.on("exit", () => removeEntries());
  entries.set(source.href, outfile);
  return outfile;
}

function removeEntries(): void {
  for (const file of entries.values()) rmSync(file, { force: true });
}

// Bundles a TypeScript child-process script (and the src/ it imports) into one ESM file in a
// temp dir, so that tests starting many children pay milliseconds per start, not tsx's load.
// Used by the crash-safety and lock-contention tests.
import { basename, join } from "node:path";
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

// One V8 code cache for the bundles in every test home that links to it: the executable keeps
// the cache in $CODEWHALE_HOME/cache (keyed by the bundle's bytes, its path and the Node
// version, written atomically), so after the first CLI start of a run the others skip compiling
// the bundle, about a third of an `exec`'s CPU. Used by cli.ts, provider-env.ts and the config
// layouts.
import { mkdirSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * The run's one cache dir, inside the run's temp dir (scripts/test.mjs), so never the
 * developer's: runCli (cli.ts) hands it to the CLI as CODEWHALE_COMPILE_CACHE.
 */
export function sharedCodeCache(): string {
  const dir = join(tmpdir(), "cw-code-cache");
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}

/**
 * Links `home`/cache to the run's one cache dir, for the CLI started with an environment of
 * the test's own. test/cli/compile-cache.test.ts tests the cache in homes of its own.
 */
export function shareCodeCache(home: string): void {
  symlinkSync(sharedCodeCache(), join(home, "cache"));
}

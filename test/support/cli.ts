// Runs the built `codewhale` CLI (bin/codewhale.cjs → dist/) as a child process, the way a user
// does. scripts/test.mjs builds dist/ before any test starts; tests never build it themselves.
import { type SpawnSyncOptions, type SpawnSyncReturns, spawnSync } from "node:child_process";
import { sharedCodeCache } from "./code-cache.ts";
import { repoRoot } from "./repo-root.ts";

export { repoRoot };
export const cliPath = `${repoRoot}bin/codewhale.cjs`;

/**
 * A clean environment for the CLI: PATH, the run's one compile-cache directory (so a CLI start
 * in a fresh home is not a cold one; `CODEWHALE_COMPILE_CACHE` in `env` overrides it), `env`.
 */
export function cliEnv(env: Record<string, string> = {}): Record<string, string> {
  return { PATH: process.env.PATH ?? "", CODEWHALE_COMPILE_CACHE: sharedCodeCache(), ...env };
}

export interface CliRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs codewhale synchronously with a clean environment (cliEnv) plus `env`. */
export function runCli(
  args: string[],
  options: { env?: Record<string, string>; cwd?: string; input?: string } = {},
): CliRun {
  const spawnOptions: SpawnSyncOptions = {
    cwd: options.cwd ?? repoRoot,
    encoding: "utf8",
    env: cliEnv(options.env),
    input: options.input,
    timeout: 60_000,
  };
  const result = spawnSync(process.execPath, [cliPath, ...args], spawnOptions);
  return {
    status: result.status,
    stdout: String(result.stdout),
    stderr: String(result.stderr),
  };
}

/**
 * Runs codewhale with a pseudo-terminal as its stdin (util-linux `script`), typing `answer`:
 * for the questions it asks only on a terminal. The environment is cliEnv's plus `env`.
 */
export function runCliOnTerminal(
  args: string[],
  answer: string,
  options: { env: Record<string, string>; cwd: string },
): SpawnSyncReturns<string> {
  const command = [process.execPath, cliPath, ...args].map((part) => `'${part}'`).join(" ");
  return spawnSync("script", ["-qec", command, "/dev/null"], {
    encoding: "utf8",
    input: answer,
    env: cliEnv(options.env),
    cwd: options.cwd,
    timeout: 30_000,
  });
}

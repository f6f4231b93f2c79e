// Where codewhale's own files live: `$CODEWHALE_HOME` (a leading `~` expanded), else
// `~/.codewhale`. Imports nothing but Node, so the launch frame (src/cli/launch-frame.ts, run by
// the bin before the CLI bundle loads) resolves the home exactly as the config loader does.
import { homedir } from "node:os";
import { join, resolve } from "node:path";

export type Env = Readonly<Record<string, string | undefined>>;

/** `$CODEWHALE_HOME`, or `~/.codewhale`. Always absolute. */
export function resolveHome(env: Env): string {
  const fromEnv = env.CODEWHALE_HOME;
  if (fromEnv) return resolve(expandTilde(fromEnv, env));
  return join(env.HOME || homedir(), ".codewhale");
}

/** `~` and `~/…` against HOME; anything else unchanged. */
export function expandTilde(path: string, env: Env): string {
  if (path === "~") return env.HOME || homedir();
  if (path.startsWith("~/")) return join(env.HOME || homedir(), path.slice(2));
  return path;
}

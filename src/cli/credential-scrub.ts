// Puts the provider credentials codewhale reads out of its children's reach. Once the config has
// named them (each provider's `api_key_env`), their values are copied into the environment the
// session resolves providers from, deleted from process.env (nothing spawned later inherits
// them) and blanked in the process's initial environment block, which is what
// /proc/<pid>/environ shows to a tool reading /proc/$PPID/environ. Called by exec at start.
import { closeSync, openSync, readFileSync, writeSync } from "node:fs";
import type { Env } from "../config/index.ts";

export interface TakenCredentials {
  /** The environment as it was, credentials included: for resolving providers only. */
  env: Env;
  /** The variables removed from process.env. */
  names: string[];
  /** Whether /proc/self/environ no longer shows their values (false off Linux or if refused). */
  environBlanked: boolean;
}

export function takeCredentials(names: readonly string[]): TakenCredentials {
  const env: Env = { ...process.env };
  const present = [...new Set(names)].filter((name) => process.env[name] !== undefined);
  for (const name of present) delete process.env[name];
  const environBlanked = present.length === 0 || blankInitialEnvironment(new Set(present));
  return { env, names: present, environBlanked };
}

/**
 * Overwrites with NUL bytes the values of `names` in the initial environment block: the memory
 * between env_start and env_end (fields 50 and 51 of /proc/self/stat), written through
 * /proc/self/mem, which a process may always do to itself. The strings there are no longer
 * referenced once process.env dropped them. Returns false when it cannot be done.
 */
function blankInitialEnvironment(names: ReadonlySet<string>): boolean {
  let fd: number | null = null;
  try {
    const stat = readFileSync("/proc/self/stat", "latin1");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const envStart = Number(fields[47]);
    const block = readFileSync("/proc/self/environ");
    if (!Number.isSafeInteger(envStart) || envStart <= 0) return false;
    fd = openSync("/proc/self/mem", "r+");
    for (let at = 0; at < block.length; ) {
      let end = block.indexOf(0, at);
      if (end < 0) end = block.length;
      const equals = block.indexOf(0x3d, at);
      if (equals > at && equals < end && names.has(block.toString("latin1", at, equals))) {
        const blank = Buffer.alloc(end - equals - 1);
        if (writeSync(fd, blank, 0, blank.length, envStart + equals + 1) !== blank.length)
          return false;
      }
      at = end + 1;
    }
    return !stillShown(names);
  } catch {
    return false;
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

/** Whether /proc/self/environ still shows a value for any of `names`. */
function stillShown(names: ReadonlySet<string>): boolean {
  for (const entry of readFileSync("/proc/self/environ", "latin1").split("\0")) {
    const equals = entry.indexOf("=");
    if (equals > 0 && equals < entry.length - 1 && names.has(entry.slice(0, equals))) return true;
  }
  return false;
}

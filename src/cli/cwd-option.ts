// The `--cwd <dir>` option of every command that takes one: an absolute path to an existing
// directory, or one usage-error line naming it (instead of a confusing failure later, such as
// `spawn /bin/sh ENOENT` when a command is started there).
import { existsSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { UsageError } from "../errors.ts";

export function cwdOption(dir: string | undefined): string {
  const cwd = resolve(dir ?? process.cwd());
  if (!existsSync(cwd) || !statSync(cwd).isDirectory())
    throw new UsageError(`--cwd ${cwd} is not a directory`);
  return cwd;
}

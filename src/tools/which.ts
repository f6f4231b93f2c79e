// Finds an executable on a PATH, as a shell would: the first directory holding an executable
// file of that name. Used to decide rg vs the JS grep, whether `cgc` is there, and by doctor.
import { accessSync, constants, statSync } from "node:fs";
import { delimiter, join } from "node:path";

export function findExecutable(name: string, path: string | undefined): string | null {
  for (const dir of (path ?? "").split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, name);
    try {
      if (!statSync(candidate).isFile()) continue;
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not here.
    }
  }
  return null;
}

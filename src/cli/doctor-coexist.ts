// Doctor's lines about the other terminal agent named Codewhale (the Rust one): each config file
// it wrote that codewhale reads with its own keys ignored, and another `codewhale` on the PATH
// that is not this one (the first on the PATH is what a shell runs). Called by doctor-command.ts.
import { accessSync, constants, realpathSync, statSync } from "node:fs";
import { delimiter, dirname, join, sep } from "node:path";
import type { ConfigFile } from "../config/index.ts";
import type { DoctorCheck } from "./doctor-command.ts";

export function coexistChecks(files: readonly ConfigFile[], env: NodeJS.ProcessEnv): DoctorCheck[] {
  const checks: DoctorCheck[] = files.flatMap(({ path, foreign }) =>
    foreign
      ? [
          {
            name: "config",
            status: "info" as const,
            detail: `${path} is also the other Codewhale's config: ${foreign.ignored.length} of its keys ignored (codewhale config check lists them)`,
          },
        ]
      : [],
  );
  const others = otherCodewhales(env.PATH, process.argv[1]);
  if (others.length > 0) {
    const first = others[0]?.first ? " and comes first on the PATH" : "";
    const paths = others.map((other) => other.path).join(", ");
    checks.push({
      name: "path",
      status: "warn",
      detail: `another codewhale is on the PATH: ${paths} is not this one${first}`,
    });
  }
  return checks;
}

/** Each `codewhale` on the PATH outside this package, and whether it is the one a shell runs. */
function otherCodewhales(
  path: string | undefined,
  self: string | undefined,
): { path: string; first: boolean }[] {
  const root = self ? packageRoot(self) : undefined;
  const found: { path: string; first: boolean }[] = [];
  let index = 0;
  for (const dir of (path ?? "").split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, "codewhale");
    const real = executable(candidate);
    if (real === undefined) continue;
    if (root === undefined || !real.startsWith(root + sep)) {
      if (!found.some((other) => other.path === candidate))
        found.push({ path: candidate, first: index === 0 });
    }
    index++;
  }
  return found;
}

/** The package holding this CLI: the directory above its `bin/` or `dist/`. */
function packageRoot(self: string): string | undefined {
  try {
    return dirname(dirname(realpathSync(self)));
  } catch {
    return undefined;
  }
}

function executable(candidate: string): string | undefined {
  try {
    if (!statSync(candidate).isFile()) return undefined;
    accessSync(candidate, constants.X_OK);
    return realpathSync(candidate);
  } catch {
    return undefined;
  }
}

// Helpers for the RFC script tests: copy the good fixture tree to a temp dir, edit one file,
// and run a real script against it as a child process with `--root`. Each script is bundled
// once with esbuild (as `npm run docs:check` runs it, minus tsx's start-up of about half a
// second per child), its `import.meta.url` kept as the source's so its default root holds.
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after } from "node:test";
import { fileURLToPath, pathToFileURL } from "node:url";
import { buildSync } from "esbuild";

const repo = fileURLToPath(new URL("../../../", import.meta.url));
export const GOOD_TREE = join(repo, "test/scripts/fixtures/rfc-good");

/** Repo-relative paths of the fixture RFCs the tests edit. */
export const RFC = {
  exportHtml: "docs/rfc/proposed/feature/2026-02-10-export-html.md",
  auditHooks: "docs/rfc/proposed/security/2026-02-10-audit-hooks.md",
  appendOnly: "docs/rfc/implemented/architecture/2026-01-05-append-only-log.md",
  hashChained: "docs/rfc/implemented/architecture/2026-03-01-hash-chained-log.md",
  releaseTrain: "docs/rfc/rejected/process/2026-01-20-weekly-release-train.md",
} as const;

const temps: string[] = [];
after(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

/** A fresh copy of the good tree; the caller may change it. */
export function copyGoodTree(): string {
  const dir = mkdtempSync(join(tmpdir(), "rfc-tree-"));
  temps.push(dir);
  cpSync(GOOD_TREE, dir, { recursive: true });
  return dir;
}

/** Replaces `from` by `to` in one file, failing loudly if `from` is absent. */
export function edit(root: string, path: string, from: string, to: string): void {
  const file = join(root, path);
  const text = readFileSync(file, "utf8");
  if (!text.includes(from)) throw new Error(`${path} does not contain ${JSON.stringify(from)}`);
  writeFileSync(file, text.replace(from, to));
}

export interface ScriptRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

export type ScriptName = "gen-rfc-index" | "verify-rfc-format" | "verify-rfc-classification";

const bundles = new Map<ScriptName, string>();

/** The script bundled into one ESM file in a temp dir (once per test process). */
function bundled(name: ScriptName): string {
  const known = bundles.get(name);
  if (known) return known;
  const dir = mkdtempSync(join(tmpdir(), "rfc-script-"));
  temps.push(dir);
  const outfile = join(dir, `${name}.mjs`);
  buildSync({
    entryPoints: [join(repo, "scripts", `${name}.ts`)],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    packages: "external",
    // Every script module sits in scripts/: the source's URL keeps `new URL("..")` the repo.
    define: {
      "import.meta.url": JSON.stringify(pathToFileURL(join(repo, "scripts", "x.ts")).href),
    },
    logLevel: "silent",
  });
  bundles.set(name, outfile);
  return outfile;
}

export function runScript(name: ScriptName, args: readonly string[]): ScriptRun {
  const result = spawnSync(process.execPath, [bundled(name), ...args], {
    cwd: repo,
    encoding: "utf8",
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** The stderr a failing script prints: the violations, one a line, then the count. */
export function failure(name: ScriptName, ...violations: string[]): string {
  const count = `${violations.length} violation${violations.length === 1 ? "" : "s"}`;
  return `${violations.join("\n")}\n${name}: ${count}\n`;
}

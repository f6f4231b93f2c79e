// `codewhale trust [dir]`, `codewhale trust --list` and `codewhale untrust [dir]`: manage the
// user file's `trusted_projects`, whose projects' hooks and permission settings take effect.
// Registered by cli/main.ts; the TOML editing lives in src/hooks/trust-file.ts.
import { statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { Command } from "commander";
import type { Env } from "../config/index.ts";
import { inspectConfig, resolveHome } from "../config/index.ts";
import { UsageError } from "../errors.ts";
import { canonicalPath, readTrustedProjects, writeTrustedProjects } from "../hooks/index.ts";

/** Where the command reads and writes; tests pass their own. */
export interface TrustIo {
  env: Env;
  cwd: string;
  write(text: string): void;
}

const processIo = (): TrustIo => ({
  env: process.env,
  cwd: process.cwd(),
  write: (text) => process.stdout.write(text),
});

export function registerTrustCommand(program: Command, io: () => TrustIo = processIo): void {
  program
    .command("trust")
    .description("let a project's .codewhale/config.toml run hooks and set permissions")
    .argument("[dir]", "a directory in the project (default: the current directory)")
    .option("--list", "list the trusted projects")
    .action((dir: string | undefined, options: { list?: boolean }) => {
      if (options.list) listTrusted(io());
      else trust(io(), dir);
    });
  program
    .command("untrust")
    .description("stop trusting a project's config")
    .argument("[dir]", "a directory in the project (default: the current directory)")
    .action((dir: string | undefined) => untrust(io(), dir));
}

function userFileOf(io: TrustIo): string {
  return join(resolveHome(io.env), "config.toml");
}

/** The root of the project holding `dir`: where `.codewhale/` is, else `dir` itself. */
function projectRootOf(io: TrustIo, dir: string | undefined): string {
  const start = canonicalPath(resolve(io.cwd, dir ?? "."));
  const report = inspectConfig({ cwd: start, env: io.env });
  const project = report.files.find((file) => file.kind === "project");
  return project ? canonicalPath(dirname(dirname(project.path))) : start;
}

/** Only an existing directory can be trusted: a typo must not add an entry for nothing. */
function requireDirectory(io: TrustIo, dir: string | undefined): void {
  const path = resolve(io.cwd, dir ?? ".");
  const problem = directoryProblem(path);
  if (problem) throw new UsageError(`cannot trust ${path}: ${problem}`);
}

function directoryProblem(path: string): string | null {
  try {
    const stats = statSync(path, { throwIfNoEntry: false });
    if (stats === undefined) return "no such directory";
    return stats.isDirectory() ? null : "not a directory";
  } catch {
    return "no such directory";
  }
}

function trust(io: TrustIo, dir: string | undefined): void {
  requireDirectory(io, dir);
  const userFile = userFileOf(io);
  const root = projectRootOf(io, dir);
  const current = readTrustedProjects(userFile);
  if (current.some((entry) => canonicalPath(entry) === root)) {
    io.write(`already trusted: ${root}\n`);
    return;
  }
  writeTrustedProjects(userFile, [...current, root]);
  io.write(`trusted ${root} (in ${userFile})\n`);
}

function untrust(io: TrustIo, dir: string | undefined): void {
  const userFile = userFileOf(io);
  const root = projectRootOf(io, dir);
  const current = readTrustedProjects(userFile);
  const kept = current.filter((entry) => canonicalPath(entry) !== root);
  if (kept.length === current.length) {
    io.write(`not trusted: ${root}\n`);
    return;
  }
  writeTrustedProjects(userFile, kept);
  io.write(`no longer trusted: ${root}\n`);
}

function listTrusted(io: TrustIo): void {
  const projects = readTrustedProjects(userFileOf(io));
  io.write(projects.length === 0 ? "no trusted projects\n" : `${projects.join("\n")}\n`);
}

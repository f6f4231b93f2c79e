// `codewhale trust [dir] [--show] [--fingerprint <fp>]`, `trust --list` and `untrust [dir]`:
// review and record trust in a project's `.codewhale/config.toml`. A record is the project root
// plus the fingerprint of its settings that need trust, so a later edit is untrusted again.
// Registered by cli/main.ts; the TOML editing lives in src/config/trust-file.ts.
import { statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import type { Command } from "commander";
import type { Env, LoadedConfig, TrustRecord } from "../config/index.ts";
import {
  canonicalPath,
  entryPath,
  formatKeyPath,
  inspectConfig,
  loadConfig,
  maskSecrets,
  readTrustedProjects,
  resolveHome,
  walkLeaves,
  writableUserFile,
  writeTrustedProjects,
} from "../config/index.ts";
import { UsageError } from "../errors.ts";
import { terminalSafeLine } from "../runner/index.ts";
import { printOut } from "./print.ts";

/** Where the command reads and writes; tests pass their own. */
export interface TrustIo {
  env: Env;
  cwd: string;
  write(text: string): void;
}

interface TrustOptions {
  list?: boolean;
  show?: boolean;
  fingerprint?: string;
}

const processIo = (): TrustIo => ({
  env: process.env,
  cwd: process.cwd(),
  write: printOut,
});

export function registerTrustCommand(program: Command, io: () => TrustIo = processIo): void {
  program
    .command("trust")
    .description("review, then trust a project's .codewhale/config.toml as it is now")
    .argument("[dir]", "a directory in the project (default: the current directory)")
    .option("--show", "print the settings that would be trusted and their fingerprint")
    .option("--fingerprint <fp>", "trust only if the settings still have this fingerprint")
    .option("--list", "list the trusted projects")
    .action((dir: string | undefined, options: TrustOptions) => {
      if (options.list) listTrusted(io());
      else if (options.show) showTrust(io(), dir);
      else trust(io(), dir, options.fingerprint);
    });
  program
    .command("untrust")
    .description("stop trusting a project's config")
    .argument("[dir]", "a directory in the project (default: the current directory)")
    .action((dir: string | undefined) => untrust(io(), dir));
}

function userFileOf(io: TrustIo): string {
  return writableUserFile(resolveHome(io.env));
}

interface ProjectView {
  root: string;
  loaded: LoadedConfig;
}

/** The project holding `dir`, loaded as a run there would load it (a broken config throws). */
function projectOf(io: TrustIo, dir: string | undefined): ProjectView {
  const start = canonicalPath(resolve(io.cwd, dir ?? "."), io.env.HOME);
  const loaded = loadConfig({ cwd: start, env: io.env });
  return { root: loaded.trust.projectRoot ?? start, loaded };
}

/** Only an existing directory can be trusted: a typo must not add an entry for nothing. */
function requireDirectory(io: TrustIo, dir: string | undefined): void {
  const path = resolve(io.cwd, dir ?? ".");
  const problem = directoryProblem(path);
  if (problem) throw new UsageError(`cannot trust ${path}: ${problem}`);
}

function directoryProblem(path: string): string | null {
  try {
    return statSync(path).isDirectory() ? null : "not a directory";
  } catch {
    return "no such directory";
  }
}

function sameRoot(io: TrustIo, root: string) {
  return (entry: TrustRecord) => canonicalPath(entryPath(entry), io.env.HOME) === root;
}

function trust(io: TrustIo, dir: string | undefined, expected: string | undefined): void {
  requireDirectory(io, dir);
  const { root, loaded } = projectOf(io, dir);
  const { fingerprint, projectFile } = loaded.trust;
  if (fingerprint === undefined || projectFile === undefined) {
    throw new UsageError(`nothing to trust: no .codewhale/config.toml at or above ${root}`);
  }
  if (expected !== undefined && expected !== fingerprint) {
    const message = `${projectFile} changed since it was reviewed (its settings are now ${fingerprint}, not ${expected}); run \`codewhale trust --show\` again`;
    throw new UsageError(message);
  }
  const userFile = userFileOf(io);
  const current = readTrustedProjects(userFile);
  const files = loaded.trust.files;
  const record = { path: root, fingerprint, ...(files ? { files } : {}) };
  if (loaded.trust.state === "trusted" && loaded.trust.changedFiles === undefined) {
    io.write(`already trusted: ${root} (${fingerprint})\n`);
    return;
  }
  const at = current.findIndex(sameRoot(io, root));
  const next = at < 0 ? [...current, record] : current.map((e, i) => (i === at ? record : e));
  writeTrustedProjects(userFile, next);
  io.write(`trusted ${root} as it is now (${fingerprint}, in ${userFile})\n`);
}

function untrust(io: TrustIo, dir: string | undefined): void {
  const userFile = userFileOf(io);
  // Found without loading: a broken project file must not keep its project trusted.
  const start = canonicalPath(resolve(io.cwd, dir ?? "."), io.env.HOME);
  const project = inspectConfig({ cwd: start, env: io.env }).files.find(
    (f) => f.kind === "project",
  );
  const root = project ? canonicalPath(dirname(dirname(project.path)), io.env.HOME) : start;
  const current = readTrustedProjects(userFile);
  const kept = current.filter((entry) => !sameRoot(io, root)(entry));
  if (kept.length === current.length) {
    io.write(`not trusted: ${root}\n`);
    return;
  }
  writeTrustedProjects(userFile, kept);
  io.write(`no longer trusted: ${root}\n`);
}

const STATE_TEXT = {
  trusted: "trusted (these settings, unchanged since you trusted them)",
  flag: "trusted for this run",
  untrusted: "not trusted",
  changed: "changed since you trusted it: not trusted until you trust it again",
  "path-only":
    "trusted by path before codewhale recorded what was trusted: not trusted until you trust it again",
  "no-project": "no project file",
} as const;

function showTrust(io: TrustIo, dir: string | undefined): void {
  const { root, loaded } = projectOf(io, dir);
  const { trust } = loaded;
  if (trust.projectFile === undefined || trust.fingerprint === undefined) {
    io.write(`no .codewhale/config.toml at or above ${root}: nothing to trust\n`);
    return;
  }
  const settings = maskSecrets(trust.settings ?? {});
  const lines = [
    `project file: ${trust.projectFile}`,
    `project root: ${root}`,
    `state: ${STATE_TEXT[trust.state]}`,
    `fingerprint: ${trust.fingerprint}`,
    "settings the fingerprint covers (secrets masked; limits that only tighten apply even untrusted):",
    ...settingLines(settings),
    ...fileLines(trust.files ?? {}, trust.changedFiles ?? []),
  ];
  const outside = trust.ignored.filter((setting) => setting.reason === "outside-project");
  for (const setting of outside) {
    lines.push(
      `ignored even when trusted: ${setting.key} (${setting.path} is outside the project)`,
    );
  }
  lines.push(
    `to trust exactly these: codewhale trust ${shellQuote(root)} --fingerprint ${trust.fingerprint}`,
  );
  io.write(`${lines.join("\n")}\n`);
}

function settingLines(settings: Record<string, unknown>): string[] {
  const lines: string[] = [];
  walkLeaves(settings, (path, value) => {
    if (path.length > 0) lines.push(`  ${formatKeyPath(path)} = ${JSON.stringify(value)}`);
  });
  return lines.length > 0 ? lines : ["  (none: every setting it has applies without trust)"];
}

/** The grant files the fingerprint covers, each changed one marked. */
function fileLines(files: Record<string, string>, changed: readonly string[]): string[] {
  const paths = Object.keys(files).sort();
  if (paths.length === 0) return [];
  const mark = (path: string) => (changed.includes(path) ? "  (new or changed since trusted)" : "");
  return [
    "files the fingerprint covers (commands with allowed-tools, agents, skills):",
    // A repository chooses these names: a terminal sequence in one stays text.
    ...paths.map((path) => `  ${terminalSafeLine(path)}${mark(path)}`),
  ];
}

function shellQuote(path: string): string {
  return /^[\w@%+=:,./-]+$/.test(path) ? path : `'${path.replace(/'/g, "'\\''")}'`;
}

function listTrusted(io: TrustIo): void {
  const records = readTrustedProjects(userFileOf(io));
  if (records.length === 0) {
    io.write("no trusted projects\n");
    return;
  }
  const lines = records.map((entry) =>
    typeof entry === "string"
      ? `${entry}  (path only, from before fingerprints: run \`codewhale trust\` there again)`
      : `${entry.path}  ${entry.fingerprint}`,
  );
  io.write(`${lines.join("\n")}\n`);
}

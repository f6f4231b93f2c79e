// Whether a project is trusted: the user file's `trusted_projects` holds `{ path, fingerprint }`
// records, and a project is trusted when its root is listed with the fingerprint of its current
// trusted settings (project-trust.ts) and grant files (grant-files.ts), or for one run with
// `--trust`; a grant file changed since is refused alone. Also the one notice line naming what
// was ignored. Called by load.ts; `codewhale trust` uses the fingerprint.
import { createHash } from "node:crypto";
import { homedir } from "node:os";
import { join } from "node:path";
import { canonicalJson } from "./fingerprint.ts";
import { changedGrantFiles } from "./grant-files.ts";
import type { Table } from "./merge.ts";
import type { IgnoredSetting } from "./project-trust.ts";
import { realOrResolved } from "./prompt-paths.ts";
import type { TrustEntry } from "./schema.ts";

/**
 * - `no-project`: there is no project file.
 * - `trusted`: listed with the current fingerprint. `flag`: `--trust` for this run.
 * - `untrusted`: not listed. `changed`: listed with another fingerprint.
 * - `path-only`: listed by path alone (written before fingerprints): treated as changed.
 */
export type TrustState = "no-project" | "trusted" | "flag" | "untrusted" | "changed" | "path-only";

export interface ProjectTrust {
  state: TrustState;
  trusted: boolean;
  /** The project file and its root (links resolved), when there is one. */
  projectFile?: string;
  projectRoot?: string;
  /** `sha256:<hex>` of the project's trusted settings, when there is a project file. */
  fingerprint?: string;
  /** Those settings as written in the project file (`trustedSettings`), for `trust --show`. */
  settings?: Table;
  /** The project settings that do not apply, in file order. */
  ignored: IgnoredSetting[];
  /** The one line to show when something was ignored. */
  notice?: string;
  /** The project's grant files (grant-files.ts) and their digests, for the trust record. */
  files?: Record<string, string>;
  /**
   * Grant files new or changed since the project was trusted (relative to its root): their
   * grants are refused while the settings stay trusted.
   */
  changedFiles?: string[];
}

/**
 * `sha256:` and the hex SHA-256 of the canonical JSON of `trustedSettings(project data)`, with
 * the project's grant files (grant-files.ts) beside them when it has any: `{ settings, files }`.
 */
export function trustFingerprint(
  settings: Table,
  files: Readonly<Record<string, string>> = {},
): string {
  const covered = Object.keys(files).length > 0 ? { settings, files } : settings;
  return `sha256:${createHash("sha256").update(canonicalJson(covered)).digest("hex")}`;
}

/**
 * The grant files that changed since `entry` was recorded (relative paths), when the settings
 * did not: the record's own files with today's settings give its fingerprint. Undefined when the
 * settings changed too (or the entry is no record), so the whole project is untrusted.
 */
export function changedSinceRecord(
  entry: string | TrustEntry | undefined,
  settings: Table,
  files: Readonly<Record<string, string>>,
): string[] | undefined {
  if (entry === undefined || typeof entry === "string") return undefined;
  const recorded = entry.files ?? {};
  if (trustFingerprint(settings, recorded) !== entry.fingerprint) return undefined;
  return changedGrantFiles(files, recorded);
}

/** The trust state of the project at `projectRoot` whose settings hash to `fingerprint`. */
export function trustStateOf(
  entries: readonly (string | TrustEntry)[],
  projectRoot: string,
  fingerprint: string,
  trustFlag: boolean,
  home?: string,
): TrustState {
  if (trustFlag) return "flag";
  const entry = findTrustEntry(entries, projectRoot, home);
  if (entry === undefined) return "untrusted";
  if (typeof entry === "string") return "path-only";
  return entry.fingerprint === fingerprint ? "trusted" : "changed";
}

/** The record for `projectRoot` (compared with links resolved, `~/` as `home`), if any. */
export function findTrustEntry(
  entries: readonly (string | TrustEntry)[],
  projectRoot: string,
  home?: string,
): string | TrustEntry | undefined {
  const root = canonicalPath(projectRoot, home);
  return entries.find((entry) => canonicalPath(entryPath(entry), home) === root);
}

export function entryPath(entry: string | TrustEntry): string {
  return typeof entry === "string" ? entry : entry.path;
}

/** Absolute, `~/` expanded ($HOME, else the account's home), symlinks resolved when it exists. */
export function canonicalPath(path: string, home?: string): string {
  home ||= homedir();
  return realOrResolved(path === "~" || path.startsWith("~/") ? join(home, path.slice(1)) : path);
}

const REVIEW = "review them with `codewhale trust --show`";

/** The one notice line for `ignored`, phrased by state; undefined when nothing was ignored. */
export function trustNotice(
  state: TrustState,
  projectFile: string,
  ignored: readonly IgnoredSetting[],
): string | undefined {
  if (ignored.length === 0) return undefined;
  const keys = ignored.map(describeIgnored).join(", ");
  const prefix = "codewhale: ignoring these settings of the";
  switch (state) {
    case "untrusted":
      return `${prefix} untrusted project file ${projectFile}: ${keys} (${REVIEW}, then run \`codewhale trust\` to trust them, or pass --trust for one run)`;
    case "changed":
      return `${prefix} project file ${projectFile}, which changed since you trusted it: ${keys} (${REVIEW}, then run \`codewhale trust\` again to trust them, or pass --trust for one run)`;
    case "path-only":
      return `${prefix} project file ${projectFile}, trusted by path before codewhale recorded what was trusted: ${keys} (${REVIEW}, then run \`codewhale trust\` again to trust them, or pass --trust for one run)`;
    default:
      return `${prefix} project file ${projectFile}: ${keys}`;
  }
}

function describeIgnored(setting: IgnoredSetting): string {
  if (setting.reason === "untrusted") return setting.key;
  return `${setting.key} (${setting.path} is outside the project; a project may name it only if your user file lists its directory in allowed_prompt_dirs)`;
}

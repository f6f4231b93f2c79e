// Where session logs live: `<sessions dir>/YYYY/MM/DD/<id>.jsonl`, the date being the UTC day
// encoded in the id (a UUIDv7, so ids sort by creation time). Finds a session by full id, a
// prefix of it, or its short id (the random tail, which differs between sessions minted in the
// same minute); only regular files (or symlinks to them) count as logs, so a stray directory is
// skipped. Used by every command that names a session (`sessions …`, `exec --resume`).
import { type Dirent, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { uuidv7 } from "uuidv7";
import { UsageError } from "../errors.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** True for a session id (a lowercase UUIDv7). */
export function isSessionId(value: string): boolean {
  return UUID.test(value);
}

export function newSessionId(): string {
  return uuidv7();
}

/** The creation time encoded in a UUIDv7 session id. */
export function sessionIdTime(id: string): Date {
  const ms = Number.parseInt(id.replace(/-/g, "").slice(0, 12), 16);
  return new Date(ms);
}

export function sessionPath(sessionsDir: string, id: string): string {
  const day = sessionIdTime(id).toISOString().slice(0, 10).split("-");
  return join(sessionsDir, day[0]!, day[1]!, day[2]!, `${id}.jsonl`);
}

/** Every session log under the directory, newest first: regular files only (symlinks followed). */
export function listSessionFiles(sessionsDir: string): string[] {
  const out: string[] = [];
  for (const year of children(sessionsDir, /^\d{4}$/, "directory")) {
    for (const month of children(year, /^\d{2}$/, "directory")) {
      for (const day of children(month, /^\d{2}$/, "directory")) {
        out.push(...children(day, /\.jsonl$/, "file"));
      }
    }
  }
  return out;
}

/** The paths in `dir` whose name matches and that are (or link to) the kind, sorted descending. */
function children(dir: string, pattern: RegExp, kind: "directory" | "file"): string[] {
  if (kindOf(dir) !== "directory") return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => pattern.test(entry.name) && entryKind(dir, entry) === kind)
    .map((entry) => entry.name)
    .sort()
    .reverse()
    .map((name) => join(dir, name));
}

/** The entry's kind from the listing; anything else (a symlink, say) costs a stat. */
function entryKind(dir: string, entry: Dirent): ReturnType<typeof kindOf> {
  if (entry.isFile()) return "file";
  if (entry.isDirectory()) return "directory";
  return kindOf(join(dir, entry.name));
}

/** True for a regular file, or a symlink to one. */
export function isRegularFile(path: string): boolean {
  return kindOf(path) === "file";
}

/** What a path is after following symlinks; null when missing, a loop, or unreadable. */
function kindOf(path: string): "directory" | "file" | "other" | null {
  try {
    const stats = statSync(path, { throwIfNoEntry: false });
    if (stats === undefined) return null;
    return stats.isFile() ? "file" : stats.isDirectory() ? "directory" : "other";
  } catch {
    return null;
  }
}

/** Characters of the short id: the end of the id's random tail (32 random bits in UUIDv7). */
export const SHORT_ID_LENGTH = 8;
/** The fewest characters a tail match needs; a prefix may be shorter (it is a time). */
const MIN_TAIL = 4;
/** Candidates an ambiguous id error lists before it says how many more there are. */
const MAX_LISTED = 5;

/**
 * The short form of a session id: its last 8 hex characters. UUIDv7 ids minted in the same
 * minute share their first 12 characters (the time); the tail is random, so it differs.
 */
export function shortSessionId(id: string): string {
  return id.slice(-SHORT_ID_LENGTH);
}

/**
 * Resolves a full id, a prefix of one, or the end of one (its short id, 4 characters or more)
 * to a log path, or throws a UsageError: for no match, or naming the candidates when the text
 * matches more than one session.
 */
export function findSession(sessionsDir: string, idOrPrefix: string): string {
  const wanted = idOrPrefix.trim().toLowerCase();
  if (UUID.test(wanted)) {
    const path = sessionPath(sessionsDir, wanted);
    if (isRegularFile(path)) return path;
  }
  const tail = /^[0-9a-f-]+$/.test(wanted) && wanted.length >= MIN_TAIL;
  const matches =
    wanted === ""
      ? []
      : listSessionFiles(sessionsDir).filter((path) => {
          const id = sessionIdOfPath(path);
          return id.startsWith(wanted) || (tail && id.endsWith(wanted));
        });
  if (matches.length === 1) return matches[0]!;
  if (matches.length === 0)
    throw new UsageError(`no session matches "${idOrPrefix}" in ${sessionsDir}`);
  const ids = matches.slice(0, MAX_LISTED).map(sessionIdOfPath);
  const more = matches.length > MAX_LISTED ? ` and ${matches.length - MAX_LISTED} more` : "";
  throw new UsageError(
    `"${idOrPrefix}" matches ${matches.length} sessions (${ids.join(", ")}${more}); give more of the id`,
  );
}

export function sessionIdOfPath(path: string): string {
  const name = path.slice(path.lastIndexOf("/") + 1);
  return name.endsWith(".jsonl") ? name.slice(0, -".jsonl".length) : name;
}

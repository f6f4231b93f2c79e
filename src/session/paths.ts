// Where session logs live: `<sessions dir>/YYYY/MM/DD/<id>.jsonl`, the date being the UTC day
// encoded in the id (a UUIDv7, so ids sort by creation time). Finds a session by id or prefix.
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { uuidv7 } from "uuidv7";
import { UsageError } from "../errors.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/;

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

/** Every session log under the directory, newest first. */
export function listSessionFiles(sessionsDir: string): string[] {
  const out: string[] = [];
  for (const year of childNames(sessionsDir, /^\d{4}$/)) {
    for (const month of childNames(join(sessionsDir, year), /^\d{2}$/)) {
      for (const day of childNames(join(sessionsDir, year, month), /^\d{2}$/)) {
        const dir = join(sessionsDir, year, month, day);
        for (const file of childNames(dir, /\.jsonl$/)) out.push(join(dir, file));
      }
    }
  }
  return out;
}

function childNames(dir: string, pattern: RegExp): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => pattern.test(name))
    .sort()
    .reverse();
}

/** Resolves a full id or a unique prefix to a log path, or throws a UsageError. */
export function findSession(sessionsDir: string, idOrPrefix: string): string {
  const wanted = idOrPrefix.toLowerCase();
  if (UUID.test(wanted)) {
    const path = sessionPath(sessionsDir, wanted);
    if (existsSync(path)) return path;
  }
  const matches = listSessionFiles(sessionsDir).filter((path) =>
    sessionIdOfPath(path).startsWith(wanted),
  );
  if (matches.length === 1) return matches[0]!;
  if (matches.length === 0)
    throw new UsageError(`no session matches "${idOrPrefix}" in ${sessionsDir}`);
  throw new UsageError(`"${idOrPrefix}" matches ${matches.length} sessions; give more of the id`);
}

export function sessionIdOfPath(path: string): string {
  const name = path.slice(path.lastIndexOf("/") + 1);
  return name.endsWith(".jsonl") ? name.slice(0, -".jsonl".length) : name;
}

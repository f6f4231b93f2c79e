// A cache of big config files as parsed and accepted by the schema, so a load of an unchanged
// 2 MB file skips the TOML parse and the check: `$CODEWHALE_HOME/cache/config/<sha256 of the
// file's path>`, one entry per config path, its first line the key it was made for (SHA-256 of
// the build, BUILD_ID, and the file's text), then the table as JSON. An entry is used only when
// its key is the file's as read now and it is a regular file of this user's, 0600; it is written
// to a temporary file renamed into place, at exit (or before the next read of the cache), so
// the load that parsed the file does not wait for it. Any failure is a miss. Used by files.ts.
import { createHash } from "node:crypto";
import { join } from "node:path";
import { BUILD_ID } from "../version.ts";
import { isTable, type Table } from "./merge.ts";
import { readOwnFile, writeOwnFile } from "./own-file.ts";

const FORMAT = "codewhale config cache 1";
/** An entry for the largest config file accepted (16 MiB) stays well under this as JSON. */
const MAX_ENTRY_BYTES = 64 * 1024 * 1024;

/** Entries to write, by entry path: each writes the latest table stored for its file. */
const pending = new Map<string, () => void>();
let writesAtExit = false;

/** The table cached for `path` with this `text`, or undefined (no entry, stale, not ours). */
export function cachedParse(cacheDir: string, path: string, text: string): Table | undefined {
  writePendingParses();
  const content = readOwnFile(entryPath(cacheDir, path), MAX_ENTRY_BYTES, { private: true });
  if (content === undefined) return undefined;
  const newline = content.indexOf("\n");
  if (newline < 0 || content.slice(0, newline) !== keyOf(text)) return undefined;
  try {
    const data: unknown = JSON.parse(content.slice(newline + 1));
    return isTable(data) ? data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Stores `data`, the table parsed from `text` that the schema accepted, as the entry for `path`:
 * at exit, or before the next read of the cache, whichever is first. A table JSON cannot carry
 * exactly (-0, a date) is not stored. Never throws.
 */
export function storeParse(cacheDir: string, path: string, text: string, data: Table): void {
  if (!writesAtExit) process.once("exit", writePendingParses);
  writesAtExit = true;
  const entry = entryPath(cacheDir, path);
  pending.set(entry, () => writeEntry(cacheDir, entry, text, data));
}

/** Writes the entries stored since the last write (bench and tests call it; exit does). */
export function writePendingParses(): void {
  const writes = [...pending.values()];
  pending.clear();
  for (const write of writes) write();
}

/** Writes one entry; the cache directory is made only inside an existing $CODEWHALE_HOME. */
function writeEntry(cacheDir: string, entry: string, text: string, data: Table): void {
  let json: string;
  try {
    json = JSON.stringify(data, exactOnly);
  } catch {
    return;
  }
  writeOwnFile(entry, `${keyOf(text)}\n${json}`, [cacheDir, join(cacheDir, "config")]);
}

function entryPath(cacheDir: string, path: string): string {
  return join(cacheDir, "config", createHash("sha256").update(path).digest("hex"));
}

function keyOf(text: string): string {
  return createHash("sha256").update(`${FORMAT}\0${BUILD_ID}\0`).update(text).digest("hex");
}

/** JSON.stringify's replacer: refuses the values JSON would turn into others. */
function exactOnly(this: Table, key: string, value: unknown): unknown {
  const raw = this[key];
  if (Object.is(raw, -0) || raw instanceof Date) throw new Error("not exact in JSON");
  return value;
}

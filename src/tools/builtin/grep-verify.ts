// ripgrep's hits checked after the fact (grep-rg.ts): rg opens files by path, so a folder
// swapped for a symlink while it searches sends it into another folder, the workspace's own or
// one outside. Each file with hits is opened again without following any link (open-inside.ts,
// at the real path the path check found) and each hit's line is read through that descriptor:
// a hit whose line is not what rg reported, or whose file is no longer there, is dropped with a
// warning, so no text or name rg found through a link ever reaches the model.
import { constants } from "node:fs";
import type { FileHandle } from "node:fs/promises";
import type { GrepHits, GrepMatch } from "./grep-search.ts";
import { bareLine, cutGrepLine, GREP_CUT_MARKER } from "./grep-search.ts";
import { openInside } from "./open-inside.ts";

/** Where the searched target really is, as the path check found it. */
export interface RealTarget {
  /** The target as given to rg (absolute): every hit's path starts with it. */
  given: string;
  /** Its real path, every symlink resolved. */
  real: string;
  /** The real directory it must stay inside (the workspace's or the spill directory's). */
  root: string;
}

/** rg's own mark on a line it shows as a preview (`--max-columns-preview`). */
const PREVIEW_MARK = / \[\.\.\. (?:omitted end of long line|\d+ more matches?)\]$/;
const CHUNK_BYTES = 64 * 1024;
/** A line is kept up to this many characters: more than a shown line (500) ever needs. */
const LINE_CAP = 8192;

/** The hits whose files and lines are, read without following links, what rg reported. */
export async function verifiedHits(hits: GrepHits, target: RealTarget): Promise<GrepHits> {
  const files = new Map<string, GrepMatch[]>();
  for (const match of hits.matches) {
    const list = files.get(match.path) ?? [];
    list.push(match);
    files.set(match.path, list);
  }
  for (const path of hits.files) files.set(path, files.get(path) ?? []);
  const dropped = new Set<string>();
  for (const [path, matches] of files) {
    if (!(await sameFile(path, matches, target))) dropped.add(path);
  }
  if (dropped.size === 0) return hits;
  // Not named: a name rg found through a link may be a name from outside.
  const count = dropped.size === 1 ? "1 file" : `${dropped.size} files`;
  const warning = `${count} changed while the search ran (a folder swapped for a symbolic link); skipped`;
  return {
    matches: hits.matches.filter((match) => !dropped.has(match.path)),
    files: hits.files.filter((path) => !dropped.has(path)),
    warnings: [...hits.warnings, warning],
    capped: hits.capped,
  };
}

/** Whether `path`, opened inside the root without following links, holds the lines rg showed. */
async function sameFile(path: string, matches: GrepMatch[], target: RealTarget): Promise<boolean> {
  if (!path.startsWith(target.given)) return false;
  const real = target.real + path.slice(target.given.length);
  let handle: FileHandle;
  try {
    handle = await openInside({ root: target.root, real, display: path }, constants.O_RDONLY);
  } catch {
    return false;
  }
  try {
    if (!(await handle.stat()).isFile()) return false;
    if (matches.length === 0) return true;
    const lines = await linesOf(handle, new Set(matches.map((match) => match.line)));
    return matches.every((match) => sameLine(match.text, lines.get(match.line)));
  } catch {
    return false;
  } finally {
    await handle.close();
  }
}

/** The text of rg's hit matches the line as read: whole, or the start of a line rg previewed. */
function sameLine(shown: string, line: string | undefined): boolean {
  if (line === undefined) return false;
  const text = bareLine(line);
  if (shown === cutGrepLine(text)) return true;
  const start = shown.endsWith(GREP_CUT_MARKER) ? shown.slice(0, -GREP_CUT_MARKER.length) : shown;
  return text.startsWith(start.replace(PREVIEW_MARK, ""));
}

/**
 * The wanted lines of the open file (each up to LINE_CAP characters, so memory stays bounded),
 * decoded as rg decodes them: UTF-16 by its byte order mark, else UTF-8 (a leading BOM
 * dropped, bytes that are not UTF-8 as U+FFFD).
 */
async function linesOf(handle: FileHandle, wanted: Set<number>): Promise<Map<number, string>> {
  const last = Math.max(...wanted);
  const found = new Map<number, string>();
  const buffer = Buffer.alloc(CHUNK_BYTES);
  let decoder: TextDecoder | undefined;
  let line = 1;
  let partial = "";
  for (let position = 0; line <= last; ) {
    const { bytesRead } = await handle.read(buffer, 0, CHUNK_BYTES, position);
    const chunk = buffer.subarray(0, bytesRead);
    decoder ??= new TextDecoder(encodingOf(chunk));
    const text = partial + decoder.decode(chunk, { stream: bytesRead > 0 });
    const parts = text.split("\n");
    partial = bytesRead > 0 ? (parts.pop() ?? "").slice(0, LINE_CAP) : "";
    for (const part of parts) {
      if (wanted.has(line)) found.set(line, part.slice(0, LINE_CAP));
      if (++line > last) break;
    }
    if (bytesRead === 0) {
      if (partial !== "" && wanted.has(line)) found.set(line, partial);
      break;
    }
    position += bytesRead;
  }
  return found;
}

function encodingOf(start: Uint8Array): string {
  if (start[0] === 0xff && start[1] === 0xfe) return "utf-16le";
  if (start[0] === 0xfe && start[1] === 0xff) return "utf-16be";
  return "utf-8";
}

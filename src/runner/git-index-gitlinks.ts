// The gitlinks (mode 160000: a submodule, or any nested repository added by
// `git update-index --cacheinfo 160000,…`) of a git index file, read from its bytes without git
// (versions 2, 3 and 4, SHA-1 or SHA-256, a split index's shared index). Called by
// sandbox-git-watch.ts after a sandboxed command changed the index: host `git status` runs git
// inside each populated gitlink.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";

const GITLINK = 0o160000;
const TYPE_MASK = 0o170000;

/**
 * The paths of the index's gitlink entries, those of its shared index included (a split index,
 * `git update-index --split-index`: entries may live in `sharedindex.<hash>` beside it); [] when
 * it cannot be read or parsed.
 */
export function indexGitlinks(indexPath: string, hashBytes: 20 | 32 = 20): string[] {
  const own = parsedIndex(indexPath, hashBytes);
  if (!own.shared) return own.gitlinks;
  const shared = parsedIndex(join(dirname(indexPath), `sharedindex.${own.shared}`), hashBytes);
  return [...new Set([...own.gitlinks, ...shared.gitlinks])];
}

interface Parsed {
  gitlinks: string[];
  /** The hash of the shared index a split index names (its `link` extension), or null. */
  shared: string | null;
}

function parsedIndex(path: string, hashBytes: number): Parsed {
  try {
    return parseIndex(readFileSync(path), hashBytes);
  } catch {
    return { gitlinks: [], shared: null };
  }
}

function parseIndex(data: Buffer, hashBytes: number): Parsed {
  const out: Parsed = { gitlinks: [], shared: null };
  if (data.length < 12 || data.toString("latin1", 0, 4) !== "DIRC") return out;
  const version = data.readUInt32BE(4);
  if (version < 2 || version > 4) return out;
  const count = data.readUInt32BE(8);
  let offset = 12;
  let previous = "";
  for (let i = 0; i < count; i++) {
    const start = offset;
    const mode = data.readUInt32BE(start + 24);
    let at = start + 40 + hashBytes;
    const flags = data.readUInt16BE(at);
    at += 2;
    if (version >= 3 && flags & 0x4000) at += 2;
    let path: string;
    if (version === 4) {
      const { value: strip, next } = varint(data, at);
      const end = data.indexOf(0, next);
      // No end: the file is cut or crafted (reading on from -1 went back to its start).
      if (end < 0) return out;
      path = previous.slice(0, previous.length - strip) + data.toString("utf8", next, end);
      offset = end + 1;
    } else {
      const length = flags & 0xfff;
      const end = length < 0xfff ? at + length : data.indexOf(0, at);
      if (end < 0) return out;
      path = data.toString("utf8", at, end);
      // Padded with 1 to 8 NULs to a multiple of 8 bytes from the entry's start.
      offset = start + ((end - start + 8) & ~7);
    }
    if (offset > data.length) return out;
    previous = path;
    if ((mode & TYPE_MASK) === GITLINK && checkoutPath(path)) out.gitlinks.push(path);
  }
  // Extensions (a 4-byte signature, a 4-byte size, the data) up to the trailing checksum.
  while (offset + 8 <= data.length - hashBytes) {
    const signature = data.toString("latin1", offset, offset + 4);
    const size = data.readUInt32BE(offset + 4);
    if (signature === "link" && size >= hashBytes) {
      out.shared = data.toString("hex", offset + 8, offset + 8 + hashBytes);
    }
    offset += 8 + size;
  }
  return out;
}

/**
 * Whether git would check a path out (its verify_path, in short): relative, no empty, `.`, `..`
 * or `.git` part. A command can write any bytes into the index; one of these would send the
 * reader of nested repositories outside the workspace, past what the sandbox hides.
 */
function checkoutPath(path: string): boolean {
  return path
    .split("/")
    .every((part) => part !== "" && part !== "." && part !== ".." && part.toLowerCase() !== ".git");
}

/** git's offset varint (index v4's prefix length). */
function varint(data: Buffer, at: number): { value: number; next: number } {
  let c = data[at] ?? 0;
  let value = c & 127;
  let next = at + 1;
  while (c & 128) {
    c = data[next] ?? 0;
    next += 1;
    value = ((value + 1) << 7) | (c & 127);
  }
  return { value, next };
}

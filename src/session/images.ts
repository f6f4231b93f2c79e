// Images the user attaches to a prompt: checked by signature (PNG, JPEG, GIF, WebP), bounded,
// and stored once, content-addressed, in a directory beside the session log (`<id>.images/`,
// each file named by its SHA-256, mode 0600), so the log carries only each image's hash, type
// and size (docs/session-format.md, "Images"). Used by the agent (storing a prompt's images,
// reading them back for a request), the surfaces (reading an image file) and `sessions verify`.
import { hash } from "node:crypto";
import {
  closeSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { basename, dirname, join } from "node:path";
import { UsageError } from "../errors.ts";

/**
 * The largest image accepted, in bytes: 3.75 MiB, which is 5 MiB as base64 (Anthropic's limit
 * on one image; OpenAI's is higher). Larger images are refused, not downscaled.
 */
const MAX_IMAGE_BYTES = 3_932_160;

type ImageMediaType = "image/png" | "image/jpeg" | "image/gif" | "image/webp";

/** What an event records of one stored image: its hash, type and size. */
export interface ImageRef {
  sha256: string;
  media_type: ImageMediaType;
  bytes: number;
}

/** The media type the bytes start like, or null for anything but PNG, JPEG, GIF and WebP. */
export function sniffImageType(bytes: Uint8Array): ImageMediaType | null {
  const at = (offset: number, text: string) =>
    Buffer.from(bytes.subarray(offset, offset + text.length)).toString("latin1") === text;
  if (at(0, "\x89PNG\r\n\x1a\n")) return "image/png";
  if (at(0, "\xff\xd8\xff")) return "image/jpeg";
  if (at(0, "GIF87a") || at(0, "GIF89a")) return "image/gif";
  if (at(0, "RIFF") && at(8, "WEBP")) return "image/webp";
  return null;
}

/** The largest image accepted, in bytes (the `read` tool says it too). */
export function imageLimit(): number {
  return MAX_IMAGE_BYTES;
}

/** An image ready to attach: its bytes and the type its signature shows. */
export interface AttachedImage {
  data: Buffer;
  mediaType: ImageMediaType;
}

/**
 * Checks bytes from `source` (a path or a name) as an attachable image; a refusal is one line
 * naming the source and the rule (a UsageError).
 */
export function checkImage(data: Buffer, source: string): AttachedImage {
  const mediaType = sniffImageType(data);
  if (!mediaType) {
    throw new UsageError(`${source}: not a PNG, JPEG, GIF or WebP image (checked by signature)`);
  }
  if (data.length > MAX_IMAGE_BYTES) {
    throw new UsageError(
      `${source}: the image is ${imageSize(data.length)}; images over ${imageSize(MAX_IMAGE_BYTES)} are refused (codewhale does not downscale): make it smaller`,
    );
  }
  return { data, mediaType };
}

/** Reads an image file the user named, checked as `checkImage` does; one line on any failure. */
export function readImageFile(path: string): AttachedImage {
  let size: number;
  try {
    const stat = statSync(path);
    if (!stat.isFile()) throw new UsageError(`${path}: not a file`);
    size = stat.size;
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`${path}: cannot read the image (${codeOf(error)})`);
  }
  if (size > MAX_IMAGE_BYTES) checkImage(readHead(path), path); // its type first, then its size
  if (size > MAX_IMAGE_BYTES) {
    throw new UsageError(
      `${path}: the image is ${imageSize(size)}; images over ${imageSize(MAX_IMAGE_BYTES)} are refused (codewhale does not downscale): make it smaller`,
    );
  }
  return checkImage(readFileSync(path), path);
}

/** The first 16 bytes of a file: enough for every signature. */
function readHead(path: string): Buffer {
  const head = Buffer.alloc(16);
  const fd = openSync(path, "r");
  try {
    return head.subarray(0, readSync(fd, head, 0, 16, 0));
  } finally {
    closeSync(fd);
  }
}

function codeOf(error: unknown): string {
  return (error as { code?: string }).code ?? String(error);
}

/** `512 B`, `12.0 KiB`, `3.75 MiB`. */
export function imageSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${Number((bytes / (1024 * 1024)).toFixed(2))} MiB`;
}

/** The image directory of a session log: `<dir>/<id>.images/` beside `<dir>/<id>.jsonl`. */
export function imageDirOf(logPath: string): string {
  return join(dirname(logPath), `${basename(logPath, ".jsonl")}.images`);
}

/** The hex SHA-256 of bytes. */
function sha256Of(data: Uint8Array): string {
  return hash("sha256", data, "hex");
}

/**
 * Stores an image in `dir` under its SHA-256 (once: a file already there is kept), mode 0600,
 * written to a temporary name and renamed into place; returns what the event records.
 */
export function storeImage(dir: string, image: AttachedImage): ImageRef {
  const sha256 = sha256Of(image.data);
  const path = join(dir, sha256);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (!storedIntact(path, sha256)) {
    const temporary = `${path}.${process.pid}.tmp`;
    writeFileSync(temporary, image.data, { mode: 0o600 });
    renameSync(temporary, path);
  }
  return { sha256, media_type: image.mediaType, bytes: image.data.length };
}

function storedIntact(path: string, sha256: string): boolean {
  try {
    return sha256Of(readFileSync(path)) === sha256;
  } catch {
    return false;
  }
}

/** How a stored image reads back: its bytes, or why not (missing, or not what its hash says). */
type StoredImage =
  | { ok: true; data: Buffer }
  | { ok: false; path: string; problem: "missing" | "mismatch" };

/** Reads the stored image `sha256` from `dir`, checking its hash. */
export function readStoredImage(dir: string, sha256: string): StoredImage {
  const path = join(dir, sha256);
  let data: Buffer;
  try {
    data = readFileSync(path);
  } catch {
    return { ok: false, path, problem: "missing" };
  }
  if (sha256Of(data) !== sha256) return { ok: false, path, problem: "mismatch" };
  return { ok: true, data };
}

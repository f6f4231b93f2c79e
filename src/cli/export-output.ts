// Where an export's bytes go and how they are counted: a buffered sink that hashes what it
// writes (SHA-256) into a temporary file beside the target, renamed over it only when complete,
// or to stdout. `checkExportTarget` refuses a target in the sessions directory or one that is
// (or links to) a session log. Called by export-command.ts; export-verify.ts hashes through it.
import { createHash, type Hash } from "node:crypto";
import {
  closeSync,
  lstatSync,
  openSync,
  readSync,
  realpathSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { isWithin, realOrResolved } from "../config/index.ts";
import { UsageError } from "../errors.ts";

const FLUSH_BYTES = 1 << 20;

/** Buffers text, hashes every byte, and hands full buffers to `flush`. */
export class HashingSink {
  private readonly hash: Hash = createHash("sha256");
  private pending: string[] = [];
  private pendingLength = 0;
  bytes = 0;

  constructor(private readonly flush: ((bytes: Buffer) => void) | null) {}

  readonly write = (text: string): void => {
    this.pending.push(text);
    this.pendingLength += text.length;
    if (this.pendingLength >= FLUSH_BYTES) this.drain();
  };

  writeBytes(bytes: Buffer): void {
    this.drain();
    this.take(bytes);
  }

  /** The SHA-256 (hex) of everything written so far; later writes are not hashed. */
  digest(): string {
    this.drain();
    return this.hash.digest("hex");
  }

  /** Writes without hashing (the receipt after the body it hashes). */
  writeUnhashed(text: string): void {
    this.drain();
    this.flush?.(Buffer.from(text, "utf8"));
  }

  private drain(): void {
    if (this.pending.length === 0) return;
    const bytes = Buffer.from(this.pending.join(""), "utf8");
    this.pending = [];
    this.pendingLength = 0;
    this.take(bytes);
  }

  private take(bytes: Buffer): void {
    this.hash.update(bytes);
    this.bytes += bytes.length;
    this.flush?.(bytes);
  }
}

/** An export target file, written to a temporary file in its directory and renamed at the end. */
export class ExportFile {
  private readonly temporary: string;
  private readonly fd: number;

  constructor(readonly path: string) {
    this.temporary = join(dirname(path), `.${basename(path)}.${process.pid}.${Date.now()}.tmp`);
    this.fd = openSync(this.temporary, "wx", 0o600);
  }

  readonly write = (bytes: Buffer): void => {
    for (let at = 0; at < bytes.length; ) at += writeSync(this.fd, bytes, at);
  };

  /** Closes and renames over the target (a symlink there is replaced, never written through). */
  commit(): void {
    closeSync(this.fd);
    renameSync(this.temporary, this.path);
  }

  discard(): void {
    try {
      closeSync(this.fd);
    } catch {}
    try {
      unlinkSync(this.temporary);
    } catch {}
  }
}

const pause = new Int32Array(new SharedArrayBuffer(4));

/** Writes to stdout synchronously, waiting out a full pipe; a reader gone ends the output. */
export function writeStdout(bytes: Buffer): void {
  for (let at = 0; at < bytes.length; ) {
    try {
      at += writeSync(1, bytes, at);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "EAGAIN") Atomics.wait(pause, 0, 0, 2);
      else if (code === "EPIPE") process.exit(0);
      else throw error;
    }
  }
}

/**
 * Refuses a target inside the sessions directory, a directory, and a file that is (or links
 * to) a session log or lies in the sessions directory: one line, exit 2. Export never writes
 * a session log's bytes anywhere but a new file.
 */
export function checkExportTarget(target: string, sessionsDir: string): void {
  const sessions = realOrResolved(sessionsDir);
  const parent = realOrNull(dirname(resolve(target)));
  if (parent === null)
    throw new UsageError(`cannot write ${target}: no directory ${dirname(target)}`);
  if (isWithin(parent, sessions)) {
    throw new UsageError(
      `refusing to write ${target}: it is in the sessions directory ${sessionsDir}, which only codewhale's log writer writes`,
    );
  }
  const existing = lstatSync(target, { throwIfNoEntry: false });
  if (!existing) return;
  const real = realOrNull(target);
  if (existing.isSymbolicLink() && real !== null && isWithin(real, sessions)) {
    throw new UsageError(
      `refusing to write ${target}: it links to ${real}, in the sessions directory`,
    );
  }
  if (real !== null && statSync(real).isDirectory()) {
    throw new UsageError(`cannot write ${target}: it is a directory`);
  }
  if (real !== null && looksLikeSessionLog(real)) {
    throw new UsageError(
      `refusing to overwrite ${target}: it ${real === resolve(target) ? "is" : `links to ${real}, which is`} a session log; remove it first or choose another file`,
    );
  }
}

function realOrNull(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}

/** A file whose first line is a schema-1 `session/start` event. */
function looksLikeSessionLog(path: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch {
    return false;
  }
  try {
    const buffer = Buffer.alloc(4096);
    const read = readSync(fd, buffer, 0, buffer.length, 0);
    const head = buffer.toString("utf8", 0, read);
    return /^\{[^\n]*"type":"session\/start"/.test(head) && /^\{"v":1,|"v":1[,}]/.test(head);
  } finally {
    closeSync(fd);
  }
}

// Reads the source of an export: the verified events of a log up to a seq (read-only, no
// lock), then what the receipt says of them: the bytes read and their SHA-256, the last seq and chain head, the last
// checkpoint's key, and the subagents' logs it rendered. Called by export-command.ts and export-verify.ts.
import { createHash } from "node:crypto";
import { closeSync, openSync, readSync } from "node:fs";
import { dirname } from "node:path";
import { SessionCorruptError } from "../errors.ts";
import type { ExportReceipt } from "../present/export-receipt.ts";
import { type ChildLogs, createViewRender } from "../present/export-render.ts";
import type { Redact } from "../present/export-view.ts";
import { redactText, terminalSafe } from "../runner/index.ts";
import type { SessionEvent } from "../session/events.ts";
import { imageDirOf, readStoredImage } from "../session/images.ts";
import { sessionPath } from "../session/paths.ts";
import { SessionReader } from "../session/reader.ts";
import type { HashingSink } from "./export-output.ts";

export interface SourceInfo {
  sessionId: string;
  lastSeq: number;
  chainHead: string;
  logBytes: number;
  logSha256: string;
  logSigned: { key: string; signed_seq: number } | null;
  /** The subagents' logs the view rendered, as read (the receipt's `children`). */
  children: ChildReceipt[];
}

/** What the receipt says of one subagent's log the export rendered. */
interface ChildReceipt {
  session_id: string;
  log_bytes: number;
  log_sha256: string;
  last_seq: number;
  chain_head: string;
}

/**
 * Replays the log through `throughSeq` into `onEvent`; the receipt's facts once it verified,
 * hashing the bytes read unless `copy` is given, which copies them (hashed) instead.
 */
function readSource(
  path: string,
  throughSeq: number,
  onEvent: (event: SessionEvent) => void,
  copy?: (chunk: Buffer) => void,
): SourceInfo {
  let sessionId = "";
  let logSigned: SourceInfo["logSigned"] = null;
  const reader = new SessionReader(path, { untilSeq: throughSeq });
  for (const event of reader.events()) {
    if (event.type === "session/start") sessionId = event.session_id;
    else if (event.type === "session/checkpoint") {
      logSigned = { key: event.key, signed_seq: event.signed_seq };
    }
    onEvent(event);
  }
  const { summary } = reader;
  if (summary.lastSeq !== throughSeq) {
    throw new SessionCorruptError(
      path,
      summary.events + 1,
      `the log ends at seq ${summary.lastSeq}, before seq ${throughSeq} it held when the export started`,
    );
  }
  const logBytes = summary.validBytes;
  const logSha256 = hashFilePrefix(path, logBytes, copy);
  return {
    sessionId,
    lastSeq: summary.lastSeq,
    chainHead: summary.lastHash,
    logBytes,
    logSha256,
    logSigned,
    children: [],
  };
}

/**
 * Reads the subagent sessions a parent's results name, from the parent's session directory
 * (`<dir>/YYYY/MM/DD/<id>.jsonl`), each through the seq its link names; `read` collects them.
 */
function childLogs(parentPath: string, read: ChildReceipt[]): ChildLogs {
  const root = dirname(dirname(dirname(dirname(parentPath))));
  return (sessionId, throughSeq) => {
    try {
      const path = sessionPath(root, sessionId);
      const reader = new SessionReader(path, { untilSeq: throughSeq });
      const events = [...reader.events()];
      const { summary } = reader;
      const sha256 = hashFilePrefix(path, summary.validBytes);
      const log = {
        lastSeq: summary.lastSeq,
        chainHead: summary.lastHash,
        bytes: summary.validBytes,
        sha256,
      };
      read.push({
        session_id: sessionId,
        log_bytes: log.bytes,
        log_sha256: sha256,
        last_seq: log.lastSeq,
        chain_head: log.chainHead,
      });
      return { events, ...log };
    } catch (error) {
      return { error: error instanceof Error ? error.message : String(error) };
    }
  };
}

/** SHA-256 (hex) of the first `bytes` of a file, each chunk also handed to `onChunk`. */
export function hashFilePrefix(
  path: string,
  bytes: number,
  onChunk?: (chunk: Buffer) => void,
): string {
  const hash = createHash("sha256");
  const fd = openSync(path, "r");
  const buffer = Buffer.allocUnsafe(1 << 20);
  try {
    for (let at = 0; at < bytes; ) {
      const read = readSync(fd, buffer, 0, Math.min(buffer.length, bytes - at), at);
      if (read === 0) break;
      const chunk = buffer.subarray(0, read);
      hash.update(chunk);
      onChunk?.(Buffer.from(chunk));
      at += read;
    }
  } finally {
    closeSync(fd);
  }
  return hash.digest("hex");
}

/** What derived views apply to every string: redaction unless `--no-redact`, then escapes. */
export function cleanFor(redact: boolean): Redact {
  return redact ? (text) => terminalSafe(redactText(text)) : terminalSafe;
}

/**
 * Writes the body of an export (everything but its receipt) to the sink: for canonical jsonl
 * the log's bytes through `throughSeq`, copied once every line verified; else the rendered view.
 */
export async function writeExportBody(
  path: string,
  selector: ExportReceipt["selector"],
  throughSeq: number,
  sink: HashingSink,
): Promise<SourceInfo> {
  const { view, format, redacted } = selector;
  if (view === "canonical" && format === "jsonl") {
    return readSource(
      path,
      throughSeq,
      () => undefined,
      (chunk) => sink.writeBytes(chunk),
    );
  }
  const children: ChildReceipt[] = [];
  const clean = cleanFor(redacted);
  const imageData = (sha256: string) => {
    const stored = readStoredImage(imageDirOf(path), sha256);
    return stored.ok ? stored.data.toString("base64") : null;
  };
  const options = {
    view,
    format,
    throughSeq,
    redacted,
    clean,
    children: childLogs(path, children),
    imageData,
  };
  const render = await createViewRender(options, sink.write);
  const info = readSource(path, throughSeq, (event) => render.push(event));
  render.end();
  return { ...info, children };
}

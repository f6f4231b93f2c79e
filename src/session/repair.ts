// Cutting a damaged tail off a session log (`codewhale sessions repair`): under the writer lock,
// the bytes from the first bad line on are copied to a side file `<log>.cut-<time>` next to the
// log and synced, only then is the log truncated to its last good line, and a `session/recovered`
// naming the side file is appended. Nothing is lost; the caller confirms before anything changes.
import {
  closeSync,
  fdatasyncSync,
  fstatSync,
  ftruncateSync,
  openSync,
  readSync,
  writeSync,
} from "node:fs";
import { basename } from "node:path";
import { SessionWriteError } from "../errors.ts";
import { acquireWriterLock } from "./lock.ts";
import { sessionIdOfPath } from "./paths.ts";
import { SessionReader, type TailDamage } from "./reader.ts";
import { SessionWriter } from "./writer.ts";

/** What a repair would cut: the damaged tail (or a torn last line) and how much it holds. */
export interface CutPlan extends TailDamage {
  path: string;
  /** Newline-terminated lines in the tail, plus one for an unterminated last line. */
  lines: number;
}

export type RepairOutcome =
  | { kind: "intact"; events: number }
  | { kind: "declined"; plan: CutPlan }
  | { kind: "cut"; plan: CutPlan; sideFile: string };

/** Reads a log read-only, as far as it is valid; the plan is null when nothing is damaged. */
export function planCut(path: string): { events: number; plan: CutPlan | null } {
  const reader = new SessionReader(path, { tolerateDamagedTail: true });
  for (const _ of reader.events()) {
    // Verifying is the point.
  }
  const { damaged, torn, events, lastSeq } = reader.summary;
  const tail: TailDamage | null =
    damaged ??
    (torn && {
      line: events + 1,
      reason: "torn last line",
      offset: torn.offset,
      bytes: torn.bytes,
      afterSeq: lastSeq,
    });
  if (!tail) return { events, plan: null };
  return { events, plan: { ...tail, path, lines: linesFrom(path, tail.offset) } };
}

/**
 * Cuts the damaged tail of a log under its writer lock, once `confirm` (shown the plan, as
 * read under the lock) agrees. Throws SessionLockedError while another process has it open.
 */
export async function repairLog(
  path: string,
  confirm: (plan: CutPlan) => Promise<boolean>,
): Promise<RepairOutcome> {
  const release = acquireWriterLock(path, sessionIdOfPath(path));
  let handedOver = false;
  try {
    const { events, plan } = planCut(path);
    if (!plan) return { kind: "intact", events };
    if (!(await confirm(plan))) return { kind: "declined", plan };
    const sideFile = keepTail(path, plan.offset);
    cutAt(path, plan.offset);
    handedOver = true;
    const { writer } = SessionWriter.resumeLocked(path, release);
    try {
      const kept = { dropped_bytes: plan.bytes, kept_in: basename(sideFile) };
      writer.append({ type: "session/recovered", ...kept });
    } finally {
      writer.close();
    }
    return { kind: "cut", plan, sideFile };
  } finally {
    if (!handedOver) release();
  }
}

/** Copies the bytes of `path` from `offset` on into a new side file, synced; returns its path. */
function keepTail(path: string, offset: number): string {
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  const source = openSync(path, "r");
  let side = "";
  let target = -1;
  try {
    for (let attempt = 0; target < 0; attempt++) {
      side = `${path}.cut-${stamp}${attempt === 0 ? "" : `-${attempt}`}`;
      target = openNew(side);
    }
    copyFrom(source, target, offset, side);
  } finally {
    closeSync(source);
    if (target >= 0) closeSync(target);
  }
  return side;
}

/** Opens a file that must not exist yet; -1 when it does (the caller picks another name). */
function openNew(path: string): number {
  try {
    return openSync(path, "wx", 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return -1;
    throw new SessionWriteError(path, error);
  }
}

function copyFrom(source: number, target: number, offset: number, targetPath: string): void {
  const buffer = Buffer.allocUnsafe(1 << 20);
  try {
    for (let at = offset; ; ) {
      const read = readSync(source, buffer, 0, buffer.length, at);
      if (read === 0) break;
      for (let written = 0; written < read; ) {
        written += writeSync(target, buffer, written, read - written);
      }
      at += read;
    }
    fdatasyncSync(target);
  } catch (error) {
    throw new SessionWriteError(targetPath, error);
  }
}

function cutAt(path: string, offset: number): void {
  const fd = openSync(path, "r+");
  try {
    ftruncateSync(fd, offset);
    fdatasyncSync(fd);
  } catch (error) {
    throw new SessionWriteError(path, error);
  } finally {
    closeSync(fd);
  }
}

/** Lines from `offset` to the end of the file, counted in constant memory. */
function linesFrom(path: string, offset: number): number {
  const fd = openSync(path, "r");
  const buffer = Buffer.allocUnsafe(1 << 20);
  let lines = 0;
  let last = 10;
  try {
    const size = fstatSync(fd).size;
    for (let at = offset; at < size; ) {
      const read = readSync(fd, buffer, 0, buffer.length, at);
      if (read === 0) break;
      for (let i = buffer.indexOf(10, 0); i >= 0 && i < read; i = buffer.indexOf(10, i + 1))
        lines++;
      last = buffer[read - 1]!;
      at += read;
    }
  } finally {
    closeSync(fd);
  }
  return last === 10 ? lines : lines + 1;
}

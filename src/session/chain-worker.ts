// Verifies the hash chain of a log's newline-terminated lines on worker threads, so that a
// large replay hashes while the main thread parses. Each line's check needs only the `h` the
// line before claims, so a large log is split in two halves checked at once. The worker body
// is one self-contained function (it runs as eval'd code, in the bundle and under tsx alike).
import { closeSync, openSync, readSync, statSync } from "node:fs";
import { Worker } from "node:worker_threads";

export interface ChainCheck {
  /** Lines checked. */
  lines: number;
  /** 1-based line number of the first line whose `h` does not verify, or null. */
  brokenLine: number | null;
}

interface WorkerInput {
  path: string;
  maxLines: number;
  /** The byte range to check, starting at a line; `end` is where a line starts, or Infinity. */
  start: number;
  end: number;
  /** The `h` the line before `start` claims ("" at the start of the log). */
  previous: string;
}

/**
 * Runs inside the worker: reads the file in large chunks and checks every complete line's hash
 * over its raw bytes, in place: the hash input (the previous `h`, the line up to its `h`
 * member, then `}`) is laid out over the bytes just before the line, which are no longer
 * needed, and the line's `,` before `"h"`. No per-line string or copy is made but the hex of
 * the hash. A line that is not valid UTF-8 is hashed as the reader hashes it, decoded and
 * re-encoded, so the outcome is the sequential reader's for every input.
 */
function checkChain(require: NodeJS.Require, input: WorkerInput): ChainCheck {
  const { openSync, readSync, closeSync } = require("node:fs") as typeof import("node:fs");
  const { hash } = require("node:crypto") as typeof import("node:crypto");
  const { isUtf8 } = require("node:buffer") as typeof import("node:buffer");
  const SUFFIX = 72; // `,"h":"` + 64 hex digits + `"}`
  const ROOM = 64; // bytes kept free before the data, for the first line's previous h
  const fd = openSync(input.path, "r");
  let buffer = Buffer.allocUnsafe(4 << 20);
  let previous = input.previous; // the h of the line before, "" before the first line
  let position = input.start;
  let carried = 0; // bytes of an unfinished line kept at buffer[ROOM]
  let lines = 0;
  try {
    for (;;) {
      if (ROOM + carried === buffer.length) {
        const larger = Buffer.allocUnsafe(buffer.length * 2); // a line longer than the buffer
        buffer.copy(larger, ROOM, ROOM, ROOM + carried);
        buffer = larger;
      }
      const room = Math.min(buffer.length - ROOM - carried, input.end - position);
      const read = room > 0 ? readSync(fd, buffer, ROOM + carried, room, position) : 0;
      if (read === 0) break;
      position += read;
      const end = ROOM + carried + read;
      let from = ROOM;
      for (let newline = buffer.indexOf(10, from); newline >= 0 && newline < end; ) {
        if (lines >= input.maxLines) return { lines, brokenLine: null };
        lines++;
        // Whether the line at [from, newline) carries the chained hash of its body. Inline:
        // a named inner function would be wrapped by the bundle's keepNames helper, which the
        // worker's eval'd copy of this function does not have.
        const at = newline - from - SUFFIX;
        if (at < 1) return { lines, brokenLine: lines };
        const hAt = from + at + 6;
        if (previous !== "") {
          // The line before ends with its h, `"}` and a newline; the first line of a chunk
          // has its previous h written into the room before it.
          if (from === ROOM) buffer.write(previous, from - 64, "latin1");
          else buffer.copyWithin(from - 64, from - 67, from - 3);
        }
        const comma = buffer[from + at] as number;
        buffer[from + at] = 0x7d; // }
        const body = buffer.subarray(previous === "" ? from : from - 64, from + at + 1);
        let h = hash("sha256", body, "hex");
        buffer[from + at] = comma;
        let same = buffer[hAt + 64] === 0x22; // the closing quote: h is exactly 64 digits
        for (let i = 0; i < 64 && same; i++) same = buffer[hAt + i] === h.charCodeAt(i);
        if (!same && !isUtf8(buffer.subarray(from, newline))) {
          h = hash("sha256", `${previous}${buffer.toString("utf8", from, from + at)}}`, "hex");
          same = buffer[hAt + 64] === 0x22;
          for (let i = 0; i < 64 && same; i++) same = buffer[hAt + i] === h.charCodeAt(i);
        }
        if (!same) return { lines, brokenLine: lines };
        previous = h;
        from = newline + 1;
        newline = from < end ? buffer.indexOf(10, from) : -1;
      }
      carried = buffer.copy(buffer, ROOM, from, end);
    }
  } finally {
    closeSync(fd);
  }
  return { lines, brokenLine: null };
}

// The function's own source: it must hold no named inner function, whose name the bundle's
// keepNames helper (minified, under another name) would set in code this copy does not have.
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const checkChain = ${checkChain.toString()};
parentPort.postMessage(checkChain(require, workerData));
`;

/** Below this size one worker checks the whole log. */
const SPLIT_BYTES = 32 << 20;

/** Checks the chain of up to `maxLines` lines on worker threads (two from `splitBytes` on). */
export async function checkChainInWorker(
  path: string,
  maxLines = Number.MAX_SAFE_INTEGER,
  splitBytes = SPLIT_BYTES,
): Promise<ChainCheck> {
  const whole = { path, maxLines, start: 0, end: Number.POSITIVE_INFINITY, previous: "" };
  const split = maxLines === Number.MAX_SAFE_INTEGER ? splitPoint(path, splitBytes) : null;
  if (split === null) return runWorker(whole);
  const [first, second] = await Promise.all([
    runWorker({ ...whole, end: split.at }),
    runWorker({ ...whole, start: split.at, previous: split.previous }),
  ]);
  if (first.brokenLine !== null) return first;
  const lines = first.lines + second.lines;
  const brokenLine = second.brokenLine === null ? null : first.lines + second.brokenLine;
  return { lines, brokenLine };
}

/**
 * Where the second half starts: after the first newline past the middle of a large log, with
 * the `h` the line before it claims. The first half's check of that line vouches for it.
 */
function splitPoint(path: string, splitBytes: number): { at: number; previous: string } | null {
  const size = statSync(path).size;
  if (size < splitBytes) return null;
  const fd = openSync(path, "r");
  try {
    const window = Buffer.alloc(1 << 16);
    const from = Math.floor(size / 2);
    const read = readSync(fd, window, 0, window.length, from);
    // The line ending at the newline must end in the window: its h is the 66 bytes before it.
    const newline = window.subarray(0, read).indexOf(10, 72);
    if (newline < 0) return null; // a line longer than the window
    const previous = window.toString("latin1", newline - 66, newline - 2);
    if (!/^[0-9a-f]{64}$/.test(previous)) return null;
    return { at: from + newline + 1, previous };
  } finally {
    closeSync(fd);
  }
}

function runWorker(input: WorkerInput): Promise<ChainCheck> {
  return new Promise((resolve, reject) => {
    // No execArgv: plain CommonJS whatever loader or `--input-type` the process started with.
    const worker = new Worker(WORKER_SOURCE, { eval: true, execArgv: [], workerData: input });
    worker.once("message", (result: ChainCheck) => resolve(result));
    worker.once("error", reject);
    worker.once("exit", (code) => {
      if (code !== 0) reject(new Error(`chain worker exited with code ${code}`));
    });
  });
}

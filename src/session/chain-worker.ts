// Verifies the hash chain of a log's newline-terminated lines on a worker thread, so that a
// large replay hashes on one core while the main thread parses on the other. The worker body
// is one self-contained function (it runs as eval'd code, in the bundle and under tsx alike).
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
}

/** Runs inside the worker: reads the file in chunks and checks every complete line's hash. */
function checkChain(require: NodeJS.Require, input: WorkerInput): ChainCheck {
  const { openSync, readSync, closeSync } = require("node:fs") as typeof import("node:fs");
  const { hash } = require("node:crypto") as typeof import("node:crypto");
  const SUFFIX = 72; // `,"h":"` + 64 hex digits + `"}`
  const fd = openSync(input.path, "r");
  const buffer = Buffer.allocUnsafe(4 << 20);
  let carry = Buffer.alloc(0);
  let previous = "";
  let lines = 0;
  try {
    for (let read = readSync(fd, buffer); read > 0; read = readSync(fd, buffer)) {
      const data = carry.length > 0 ? Buffer.concat([carry, buffer.subarray(0, read)]) : buffer;
      const end = carry.length > 0 ? data.length : read;
      const last = data.lastIndexOf(10, end - 1);
      carry = Buffer.from(data.subarray(last + 1, end));
      if (last < 0) continue;
      for (const line of data.toString("utf8", 0, last).split("\n")) {
        if (lines >= input.maxLines) return { lines, brokenLine: null };
        lines++;
        const at = line.length - SUFFIX;
        const h = line.slice(at + 6, line.length - 2);
        if (at < 1 || hash("sha256", `${previous}${line.slice(0, at)}}`, "hex") !== h) {
          return { lines, brokenLine: lines };
        }
        previous = h;
      }
    }
  } finally {
    closeSync(fd);
  }
  return { lines, brokenLine: null };
}

const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
var __name = (f) => f;
const checkChain = ${checkChain.toString()};
parentPort.postMessage(checkChain(require, workerData));
`;

/** Checks the chain of up to `maxLines` lines on a worker thread. */
export function checkChainInWorker(
  path: string,
  maxLines = Number.MAX_SAFE_INTEGER,
): Promise<ChainCheck> {
  return new Promise((resolve, reject) => {
    const input: WorkerInput = { path, maxLines };
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: input });
    worker.once("message", (result: ChainCheck) => resolve(result));
    worker.once("error", reject);
    worker.once("exit", (code) => {
      if (code !== 0) reject(new Error(`chain worker exited with code ${code}`));
    });
  });
}

// The terminal corpus (test/fixtures/terminal/, made by its capture.mjs) and how a rendering of
// it is scored: each capture's raw bytes through an output pipeline, compared with what tmux
// showed after normalising trailing blanks, trailing empty rows and tabs. Used by
// test/runner/terminal-corpus.test.ts and by the capture CLI test.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const CORPUS_DIR = fileURLToPath(new URL("../../fixtures/terminal/", import.meta.url));

export interface Capture {
  id: string;
  program: string;
  mode: "pty" | "pipe";
  /** The pane's columns (0 for a pipe: no wrap). */
  cols: number;
  rows: number;
  command: string;
}

export function loadCorpus(): Capture[] {
  return JSON.parse(readFileSync(`${CORPUS_DIR}manifest.json`, "utf8")) as Capture[];
}

export function rawBytes(capture: Capture): Buffer {
  return readFileSync(`${CORPUS_DIR}${capture.id}.raw`);
}

export function reference(capture: Capture): string {
  return readFileSync(`${CORPUS_DIR}${capture.id}.ref`, "utf8");
}

/** Trailing blanks of each row and trailing empty rows dropped, tabs expanded to 8-column stops. */
export function normalise(text: string): string {
  const rows = text.split("\n").map((row) => expandTabs(row).trimEnd());
  while (rows.length > 0 && rows.at(-1) === "") rows.pop();
  return rows.join("\n");
}

function expandTabs(row: string): string {
  if (!row.includes("\t")) return row;
  let out = "";
  for (const char of row) out += char === "\t" ? " ".repeat(8 - ([...out].length % 8)) : char;
  return out;
}

/** A character the model must never see: C0 controls but tab and newline, DEL, C1. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
export const STRAY_CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/;

export interface Scored {
  capture: Capture;
  identical: boolean;
  /** The first row that differs, as `row N: got … want …`, or "". */
  firstDifference: string;
  strayControl: boolean;
}

export function score(capture: Capture, output: string): Scored {
  const got = normalise(output);
  const want = normalise(reference(capture));
  return {
    capture,
    identical: got === want,
    firstDifference: got === want ? "" : firstDifference(got, want),
    strayControl: STRAY_CONTROL.test(output),
  };
}

function firstDifference(got: string, want: string): string {
  const a = got.split("\n");
  const b = want.split("\n");
  for (let row = 0; row < Math.max(a.length, b.length); row++) {
    if (a[row] !== b[row]) {
      return `row ${row + 1}: got ${JSON.stringify(a[row] ?? "<none>")} want ${JSON.stringify(b[row] ?? "<none>")} (${a.length} vs ${b.length} rows)`;
    }
  }
  return "";
}

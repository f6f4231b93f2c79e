// The order a run of scripts/test.mjs starts its test files in: the costliest first, from the
// committed table scripts/test-costs.json (seconds per file in a full run), so the run's tail
// is many short files on every lane rather than one long file alone, the cheap ones sharing
// processes (test-batches.mjs). Node's runner starts the files in the order given. `node scripts/test-costs.mjs <spec-log>` rewrites the table from
// the spec reporter's output of a full run (each top-level suite or test mapped to its file).
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { selectTests } from "./test-selection.mjs";

const TABLE = new URL("./test-costs.json", import.meta.url);
/** Files cheaper than this are left out of the table. */
const LISTED = 1;
/** A file the table does not name (cheaper than LISTED, or new) counts as this many seconds. */
const UNKNOWN = 0.5;

/** The seconds of each file's tests by the table (UNKNOWN for a file it does not name). */
export function costOf() {
  const costs = JSON.parse(readFileSync(TABLE, "utf8"));
  return (file) => costs[file] ?? UNKNOWN;
}

/** `files` ordered by their cost in the table, the costliest first; ties keep their order. */
export function orderByCost(files) {
  const cost = costOf();
  return files
    .map((file, index) => ({ file, index }))
    .sort((a, b) => cost(b.file) - cost(a.file) || a.index - b.index)
    .map(({ file }) => file);
}

/** Seconds per file from a spec-reporter log: top-level `✔ name (N ms)` lines, by file. */
export function costsFromLog(log, files, read = (file) => readFileSync(file, "utf8")) {
  const owner = new Map();
  const TOP = /^(?:describe|it|test)(?:\.\w+)?\(\s*(["'`])((?:\\.|(?!\1).)*)\1/gm;
  for (const file of files) {
    for (const [, , name] of read(file).matchAll(TOP)) {
      const unescaped = name.replace(/\\(.)/g, "$1");
      if (!owner.has(unescaped)) owner.set(unescaped, file);
    }
  }
  const seconds = {};
  for (const line of log.split("\n")) {
    const top = /^[✔✖﹣] (.*) \(([\d.]+)ms\)$/u.exec(line);
    const file = top && owner.get(top[1]);
    if (file) seconds[file] = (seconds[file] ?? 0) + Number(top[2]) / 1000;
  }
  const table = {};
  for (const [file, s] of Object.entries(seconds).sort((a, b) => b[1] - a[1])) {
    if (s >= LISTED) table[file] = Math.round(s);
  }
  return table;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const log = readFileSync(process.argv[2] ?? "/dev/stdin", "utf8");
  const table = costsFromLog(log, selectTests([]));
  writeFileSync(TABLE, `${JSON.stringify(table, null, 2)}\n`);
  console.log(`test-costs: ${Object.keys(table).length} files of 1 s or more`);
}

// One cold start of the bash parser, in a fresh process (bench/bash-parse.ts spawns it): how
// long `loadBashParser()` takes (importing the binding, instantiating both WebAssembly files)
// and then the first `splitCommand`, which also pays for compiling the grammar's code. Prints
// { load, first } in ms as JSON.
import { performance } from "node:perf_hooks";
import { loadBashParser, splitCommand } from "../src/permissions/bash-split.ts";

const started = performance.now();
await loadBashParser();
const loaded = performance.now();
splitCommand("git status --short && npm test 2>&1 | tee log");
const first = performance.now();
process.stdout.write(`${JSON.stringify({ load: loaded - started, first: first - loaded })}\n`);

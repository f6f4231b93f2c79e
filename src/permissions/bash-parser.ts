// Loads the real bash grammar (tree-sitter-bash, run by web-tree-sitter as WebAssembly) from
// disk, once and only when a bash rule needs it, and parses commands with it synchronously.
// The built CLI ships both .wasm files beside dist/cli.cjs; from source they come from
// node_modules. Nothing is downloaded. bash-split.ts parses; the agent's seam awaits the load.
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { setFlagsFromString } from "node:v8";
import type { Parser, Tree } from "web-tree-sitter";

/** The runtime and the grammar: the file beside the bundle, else the package's own. */
const RUNTIME = { file: "tree-sitter.wasm", module: "web-tree-sitter/tree-sitter.wasm" };
const GRAMMAR = { file: "tree-sitter-bash.wasm", module: "tree-sitter-bash/tree-sitter-bash.wasm" };

let parser: Parser | undefined;
let loading: Promise<void> | undefined;

/** Loads the parser once; later calls return the same promise. Rejects if a file is missing. */
export function loadBashParser(): Promise<void> {
  loading ??= load().catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

export function bashParserLoaded(): boolean {
  return parser !== undefined;
}

async function load(): Promise<void> {
  // V8's optimising tier compiles the grammar's 1.3 MB of WebAssembly on every start: about
  // 1.2 s of CPU and 35 MB more memory, where its baseline compiler alone costs a fifth of that
  // (docs/benchmarks.md). A command's parse is short, so the baseline code is fast enough.
  setFlagsFromString("--liftoff-only");
  // A dynamic import, so the bundle runs the binding's code only on first need.
  const { Language, Parser } = await import("web-tree-sitter");
  const wasmBinary = readFileSync(wasmPath(RUNTIME));
  await Parser.init({ wasmBinary });
  const language = await Language.load(readFileSync(wasmPath(GRAMMAR)));
  const next = new Parser();
  next.setLanguage(language);
  parser = next;
}

/**
 * Parses one command line. The caller must have awaited `loadBashParser()`: evaluating a bash
 * rule without it is a programmer error, never a silent pass.
 */
export function parseBash(command: string): Tree {
  if (!parser) throw new Error("parseBash called before loadBashParser() resolved");
  const tree = parser.parse(command);
  if (!tree) throw new Error("tree-sitter returned no tree");
  return tree;
}

function wasmPath(wanted: { file: string; module: string }): string {
  // The bundle (CommonJS) has __dirname; the .wasm files are copied beside it by the build.
  if (typeof __dirname === "string") {
    const bundled = join(__dirname, wanted.file);
    if (existsSync(bundled)) return bundled;
  }
  return createRequire(import.meta.url).resolve(wanted.module);
}

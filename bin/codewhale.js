#!/usr/bin/env node
// The codewhale executable: answers --version without loading anything, otherwise loads the
// bundled CLI from dist/ (built by `npm run build`).
import { readFileSync } from "node:fs";

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === "--version" || args[0] === "-V")) {
  const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
  process.stdout.write(`${pkg.version}\n`);
} else {
  // Node's HTTP client parses with a WebAssembly module; its optimising compile runs on a
  // background thread that a short run then waits for at exit (~30 ms). The baseline
  // compiler's code is fast enough for parsing responses.
  const { setFlagsFromString } = await import("node:v8");
  setFlagsFromString("--liftoff-only");
  try {
    await import("../dist/cli.js");
  } catch (error) {
    if (error?.code === "ERR_MODULE_NOT_FOUND" && String(error.message).includes("dist/cli.js")) {
      process.stderr.write("codewhale: not built yet; run `npm run build` first\n");
      process.exit(2);
    }
    throw error;
  }
}

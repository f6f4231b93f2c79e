#!/usr/bin/env node
// The codewhale executable: answers --version without loading anything, otherwise runs the
// bundled CLI (dist/cli.cjs, or dist/chat.cjs for an interactive session; built by `npm run
// build`) with V8's code cache kept in $CODEWHALE_HOME/cache, so later runs skip parsing and
// compiling most of the bundle. The bundles they require on first use (`require("./tui.cjs")`,
// the provider SDKs' chunks: scripts/build.mjs) are loaded the same way, each with its own
// cache. CommonJS, so Node starts it without its ES module loader.
"use strict";
// Node starts its inspector (127.0.0.1:9229, no authentication) on SIGUSR1, which any process
// of the same user may send, a tool command included; from there the heap, provider keys and
// all, is readable. Node 20 has no --disable-sigusr1, but a JS listener replaces Node's own
// handler, so the signal does nothing. First, before any key is read or any child started.
process.on("SIGUSR1", () => undefined);
const { createHash } = require("node:crypto");
const {
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} = require("node:fs");
const { createRequire } = require("node:module");
const { homedir } = require("node:os");
const { basename, dirname, isAbsolute, join, resolve } = require("node:path");
const { Script } = require("node:vm");

const dist = join(__dirname, "..", "dist");

/** A chunk beside the bundle, as the build names them: `./tui.cjs`, `./sdk-openai.cjs`. */
const CHUNK = /^\.\/([a-z][a-z0-9-]*)\.cjs$/;
/** Each chunk runs once per process, whichever bundle requires it. */
const chunks = new Map();

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === "--version" || args[0] === "-V")) {
  const pkg = JSON.parse(readFileSync(join(__dirname, "..", "package.json"), "utf8"));
  process.stdout.write(`${pkg.version}\n`);
} else if (meansChat(args)) {
  runBundle(join(dist, "chat.cjs"), "chat");
} else {
  runBundle(join(dist, "cli.cjs"), "cli");
}

/**
 * The command lines src/cli/default-command.ts turns into `chat` (nothing, options alone, a
 * prompt), and `chat` itself: they start from chat.cjs, the interactive session's own smaller
 * entry; every other command, and the top-level help, from cli.cjs.
 * test/cli/default-command.test.ts checks that the two agree.
 */
function meansChat(argv) {
  const first = argv[0];
  if (first === undefined || first === "chat") return true;
  if (["-h", "--help", "-V", "--version"].includes(first)) return false;
  return first.startsWith("-") || !/^[a-z][a-z-]*$/.test(first);
}

/** $CODEWHALE_HOME as src/config/home.ts resolves it (the bin loads none of src/). */
function resolveHome(env) {
  const home = env.HOME || homedir();
  const fromEnv = env.CODEWHALE_HOME;
  if (!fromEnv) return join(home, ".codewhale");
  if (fromEnv === "~") return home;
  return resolve(fromEnv.startsWith("~/") ? join(home, fromEnv.slice(2)) : fromEnv);
}

/**
 * Runs the CommonJS bundle as `require` would, compiled as a vm script so that V8's code cache
 * can be handed in (Node 20 has no code cache for ES modules or `require`). Without a usable
 * cache the run writes one at exit, holding every function the run compiled.
 */
function runBundle(file, kind) {
  const bytes = readBundle(file);
  const cache = cachePath(file, bytes, kind);
  const wrapped = `(function (exports, require, module, __filename, __dirname) {${bytes}\n})`;
  const cachedData = cache ? readOptional(cache) : undefined;
  // On the bundle's first line, so line numbers (and the source map) stay as built.
  const script = new Script(wrapped, { filename: file, cachedData });
  if (cache && (!cachedData || script.cachedDataRejected)) {
    process.once("exit", () => writeCache(cache, kind, script));
  }
  const module = { exports: {} };
  script.runInThisContext()(module.exports, requireFor(file), module, file, dirname(file));
  return module.exports;
}

/** `require` for a bundle: Node's own, except for the chunks beside it (run with a cache). */
function requireFor(file) {
  const nodeRequire = createRequire(file);
  const bundleRequire = (id) => {
    const chunk = CHUNK.exec(id);
    if (!chunk) return nodeRequire(id);
    const path = join(dirname(file), id);
    if (!chunks.has(path)) chunks.set(path, runBundle(path, chunk[1]));
    return chunks.get(path);
  };
  return Object.assign(bundleRequire, nodeRequire);
}

function readBundle(file) {
  try {
    return readFileSync(file);
  } catch (error) {
    if (error?.code !== "ENOENT") throw error;
    process.stderr.write("codewhale: not built yet; run `npm run build` first\n");
    process.exit(2);
  }
}

/**
 * The cache file for this bundle and Node version: `<kind>-<where>-<what>.v8cache`, <what> the
 * SHA-256 of the Node version and the bundle's bytes, so a rebuilt or upgraded bundle never
 * meets a stale cache, and <where> that of the bundle's path, so two installs (two checkouts)
 * sharing one home keep a cache each instead of deleting each other's.
 */
function cachePath(file, bytes, kind) {
  const setting = process.env.CODEWHALE_COMPILE_CACHE ?? "";
  if (setting === "0") return null;
  // An absolute directory keeps the cache there (one shared by many homes: the test runner's).
  const dir = isAbsolute(setting) ? setting : join(resolveHome(process.env), "cache");
  const where = createHash("sha256").update(file).digest("hex").slice(0, 12);
  const id = createHash("sha256").update(process.version).update(bytes).digest("hex").slice(0, 32);
  return join(dir, `${kind}-${where}-${id}.v8cache`);
}

function readOptional(path) {
  try {
    return readFileSync(path);
  } catch {
    return undefined;
  }
}

/**
 * Writes the cache atomically and removes older ones of the same bundle at the same path; a
 * cache is an optimisation, never an error. The cache directory is made inside an existing
 * home (or parent of CODEWHALE_COMPILE_CACHE's directory) only: a run never creates
 * $CODEWHALE_HOME itself.
 */
function writeCache(path, kind, script) {
  try {
    const dir = dirname(path);
    try {
      mkdirSync(dir, { mode: 0o700 });
    } catch (error) {
      if (error?.code !== "EEXIST") return;
    }
    const temp = `${path}.${process.pid}.tmp`;
    writeFileSync(temp, script.createCachedData(), { mode: 0o600 });
    renameSync(temp, path);
    const own = basename(path);
    const prefix = own.slice(0, own.lastIndexOf("-") + 1); // "cli-<where>-", "sdk-openai-<where>-"
    // The layout before <where> (`cli-<what>.v8cache`): no install writes it any more.
    const legacy = new RegExp(`^${kind}-[0-9a-f]+\\.v8cache$`);
    for (const name of readdirSync(dir)) {
      const older = name.startsWith(prefix) || legacy.test(name);
      if (older && name !== own && !name.endsWith(".tmp")) rmSync(join(dir, name), { force: true });
    }
  } catch {
    // Read-only home, full disk: the next run compiles from source again.
  }
}

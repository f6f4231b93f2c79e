// Bundles the CLI into dist/cli.cjs with esbuild: one CommonJS file, Node 20 target, so
// start-up reads one file instead of resolving hundreds of modules. CommonJS because Node 20
// loads it about 50 ms faster than the same code as an ES module (see docs/benchmarks.md).
// Lazy imports (the provider SDKs, secretlint) stay lazy: their code runs on first use only.
// The bash parser's two WebAssembly files are copied beside the bundle, which loads them from
// there (src/permissions/bash-parser.ts) the first time a bash rule is evaluated.
// An interactive session starts from its own entry, dist/chat.cjs (src/cli/chat-main.ts: the
// chat command up to its first frame), which loads the interactive terminal (src/tui/, with its
// rendering library and highlighter: dist/tui.cjs) and, after the frame, the engine
// (src/cli/chat-agent.ts: dist/chat-agent.cjs); `exec` and `--version` never parse them. The
// MCP client (src/tools/mcp/, with the MCP SDK) is its own bundle, dist/mcp.cjs, loaded only
// when a session or `codewhale mcp` has a server configured. The HTML-to-Markdown converter of
// web_fetch (src/tools/builtin/html-markdown.ts, with defuddle and linkedom) is its own bundle,
// dist/web.cjs, loaded only when web_fetch meets an HTML page.
import { copyFileSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, resolve } from "node:path";
import { build } from "esbuild";

const pkg = JSON.parse(readFileSync("package.json", "utf8"));

// Start from an empty dist/ so nothing from an earlier layout is left behind.
rmSync("dist", { recursive: true, force: true });

/**
 * The packages cli.cjs loads only on first use, each bundled on its own beside it: the provider
 * SDKs (imported lazily by src/providers/) and the ACP SDK (by src/acp/, itself loaded only by
 * `codewhale acp`). Taking them out of cli.cjs nearly halves what every start reads and
 * deserialises; bin/codewhale.cjs runs each chunk with its own code cache. Import their named
 * exports only: through a chunk, an ES `default` is the whole module.
 */
const PACKAGE_CHUNKS = {
  "@anthropic-ai/sdk": "sdk-anthropic",
  "@anthropic-ai/bedrock-sdk": "sdk-bedrock",
  "@anthropic-ai/vertex-sdk": "sdk-vertex",
  openai: "sdk-openai",
  "@agentclientprotocol/sdk": "sdk-acp",
};

/**
 * Imports that become `require("./<chunk>.cjs")` beside cli.cjs: chat-command.ts's
 * `import("../tui/index.ts")` and `import("./chat-agent.ts")`, the MCP client's
 * `import("../tools/mcp/index.ts")` (from agent/session-tools.ts and cli/mcp-command.ts),
 * web_fetch's `import("./html-markdown.ts")` (tools/builtin/web-content.ts) and the packages of
 * PACKAGE_CHUNKS.
 */
const chunks = {
  name: "chunks",
  setup(on) {
    on.onResolve({ filter: /^\.\.\/tui\/index\.ts$/ }, () => ({
      path: "./tui.cjs",
      external: true,
    }));
    on.onResolve({ filter: /^\.\/chat-agent\.ts$/ }, () => ({
      path: "./chat-agent.cjs",
      external: true,
    }));
    on.onResolve({ filter: /^\.\.\/tools\/mcp\/index\.ts$/ }, () => ({
      path: "./mcp.cjs",
      external: true,
    }));
    on.onResolve({ filter: /^\.\/html-markdown\.ts$/ }, () => ({
      path: "./web.cjs",
      external: true,
    }));
    httpFetchChunk.setup(on);
    const names = Object.keys(PACKAGE_CHUNKS).map((name) => name.replace(/[/.]/g, "\\$&"));
    on.onResolve({ filter: new RegExp(`^(${names.join("|")})$`) }, (args) => ({
      path: `./${PACKAGE_CHUNKS[args.path]}.cjs`,
      external: true,
    }));
  },
};

/**
 * node-fetch (src/providers/http-fetch.ts) as the chunk dist/http-fetch.cjs, required by
 * src/providers/http-client.ts and by the provider SDK chunks, whose free `Headers` and
 * `FormData` it supplies (scripts/sdk-globals.mjs, injected): one copy per process, and Node's
 * global ones, which load all of undici on first touch, never used by a request.
 */
const httpFetchChunk = {
  name: "http-fetch-chunk",
  setup(on) {
    on.onResolve({ filter: /(^|\/)http-fetch\.ts$/ }, () => ({
      path: "./http-fetch.cjs",
      external: true,
    }));
  },
};

/**
 * Two values pi-tui builds when its module loads, each costing 20–35 ms of every interactive
 * start on Node 20 (docs/rfc/implemented/architecture/2026-12-01-start-up-chunks.md): the
 * grapheme segmenter (the first Intl object initialises ICU), replaced by
 * src/tui/grapheme-segmenter.ts (the same segments, ICU only for text that needs it), and the
 * RGI_Emoji regex (a `v`-flag property of strings), made on first use. A pi-tui upgrade that
 * changes these lines fails the build here, so the patch is never lost silently.
 */
const PI_TUI_LAZY = [
  [
    'const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });',
    `import { graphemeSegmenter as segmenter } from ${JSON.stringify(resolve("src/tui/grapheme-segmenter.ts"))};`,
  ],
  [
    "const rgiEmojiRegex = /^\\p{RGI_Emoji}$/v;",
    'let rgiEmojiPattern;\nconst rgiEmojiRegex = { test: (text) => (rgiEmojiPattern ??= new RegExp("^\\\\p{RGI_Emoji}$", "v")).test(text) };',
  ],
];
const piTuiLazy = {
  name: "pi-tui-lazy",
  setup(on) {
    on.onLoad({ filter: /@mariozechner[\\/]pi-tui[\\/]dist[\\/]utils\.js$/ }, (args) => {
      let source = readFileSync(args.path, "utf8");
      for (const [from, to] of PI_TUI_LAZY) {
        if (!source.includes(from))
          throw new Error(`pi-tui-lazy: ${args.path} no longer has ${from}`);
        source = source.replace(from, to);
      }
      return { contents: source, loader: "js" };
    });
  },
};

/**
 * zod as a package with side effects, although its package.json says it has none. Our sources
 * import it as a namespace (`import * as z from "zod"`), so a bundle keeps only the schemas and
 * checks used (a sixth of the package). But where zod is also reached through a lazy import
 * (the MCP SDK's, in mcp.cjs), esbuild wraps its modules to run on first use and, trusting
 * "sideEffects": false, leaves out the calls that run them before our code reads a member:
 * `z.string()` then finds no class.
 */
const zodInitKept = {
  name: "zod-init-kept",
  setup(on) {
    on.onResolve({ filter: /^zod(\/.*)?$/ }, async (args) => {
      if (args.pluginData?.zodInitKept) return undefined;
      const { kind, resolveDir, importer } = args;
      const pluginData = { zodInitKept: true };
      const found = await on.resolve(args.path, { kind, resolveDir, importer, pluginData });
      return { path: found.path, sideEffects: true };
    });
  },
};

/** Every bundle: minified (names kept) to halve what V8 must parse; sourcemaps map it back. */
const common = {
  outdir: "dist",
  outExtension: { ".js": ".cjs" },
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node20",
  sourcemap: "linked",
  legalComments: "none",
  minify: true,
  keepNames: true,
  define: {
    __CODEWHALE_VERSION__: JSON.stringify(pkg.version),
  },
  logLevel: "warning",
};

await build({
  ...common,
  entryPoints: { tui: "src/tui/index.ts" },
  // pi-tui makes a `require` from import.meta.url; this bundle is loaded by `require`.
  banner: { js: 'var __tuiUrl = require("node:url").pathToFileURL(__filename).href;' },
  define: { ...common.define, "import.meta.url": "__tuiUrl" },
  // pi-tui's Windows console binding is an optional native package, loaded there only.
  external: ["koffi"],
  plugins: [piTuiLazy, zodInitKept],
});

/** The chunks whose package sends requests through http-fetch.cjs (the rest: the ACP SDK). */
const FETCHING_CHUNKS = ["sdk-anthropic", "sdk-bedrock", "sdk-vertex", "sdk-openai"];
const chunkEntries = (fetching) =>
  Object.fromEntries(
    Object.entries(PACKAGE_CHUNKS)
      .filter(([, chunk]) => FETCHING_CHUNKS.includes(chunk) === fetching)
      .map(([name, chunk]) => [chunk, name]),
  );
await build({
  ...common,
  entryPoints: chunkEntries(true),
  inject: ["scripts/sdk-globals.mjs"],
  plugins: [httpFetchChunk],
});
await build({ ...common, entryPoints: chunkEntries(false) });
await build({ ...common, entryPoints: { "http-fetch": "src/providers/http-fetch.ts" } });

await build({
  ...common,
  entryPoints: { mcp: "src/tools/mcp/index.ts" },
  plugins: [zodInitKept],
  supported: { "dynamic-import": false },
  logOverride: { "empty-import-meta": "silent" },
  external: ["@xterm/headless", "gpt-tokenizer", "markdown-it"],
});

await build({
  ...common,
  entryPoints: { web: "src/tools/builtin/html-markdown.ts" },
  // linkedom's <canvas> tries the optional native `canvas` package, and falls back without it.
  external: ["canvas"],
});

/** cli.cjs and the interactive start's two bundles: the chunks above stay beside them. */
const entry = {
  ...common,
  plugins: [chunks, zodInitKept],
  // A bundle run as a vm script has no loader for import(): the external tui chunk is required.
  supported: { "dynamic-import": false },
  // The binding's CommonJS build: its ES build reads import.meta.url, which a CJS bundle lacks.
  alias: { "web-tree-sitter": "./node_modules/web-tree-sitter/tree-sitter.cjs" },
  // bash-parser.ts reads import.meta.url only when run from source, never in the bundle.
  logOverride: { "empty-import-meta": "silent" },
  // The terminal emulator (runner/terminal-screen.ts) is loaded only for output that moves the
  // cursor: left to Node's resolution from node_modules at that moment, so the bundle every
  // start parses does not carry its ~300 KB.
  // The tokenizer of `sessions stats` (present/session-stats.ts, its o200k_base ranks ~2 MB)
  // likewise, loaded only by that command; and markdown-it (HTML exports, present/export-html.ts).
  // The search index's SQLite (search/index-db.ts) is a native module: loaded from node_modules.
  external: ["@xterm/headless", "gpt-tokenizer", "markdown-it", "better-sqlite3"],
};

/**
 * Our own modules as free of side effects: a module none of whose exports a bundle uses is left
 * out whole, with the schemas and tables it builds when loaded. For dist/chat.cjs, which imports
 * a few functions from layers whose indexes re-export much more (agent, config, hooks).
 */
const ownModulesPure = {
  name: "own-modules-pure",
  setup(on) {
    on.onResolve({ filter: /^\.\.?\/.*\.ts$/ }, (args) => ({
      path: resolve(args.resolveDir, args.path),
      sideEffects: false,
    }));
  },
};

await build({ ...entry, entryPoints: { cli: "src/cli/main.ts" } });

// The interactive start: chat.cjs (the `chat` command alone, up to its first frame), then
// tui.cjs, then chat-agent.cjs (the engine). bin/codewhale.cjs picks chat.cjs for `chat`.
await build({ ...entry, entryPoints: { "chat-agent": "src/cli/chat-agent.ts" } });
await build({
  ...entry,
  entryPoints: { chat: "src/cli/chat-main.ts" },
  plugins: [chunks, zodInitKept, ownModulesPure],
});

const require = createRequire(import.meta.url);
for (const wasm of ["web-tree-sitter/tree-sitter.wasm", "tree-sitter-bash/tree-sitter-bash.wasm"]) {
  const from = require.resolve(wasm);
  copyFileSync(from, `dist/${basename(from)}`);
}

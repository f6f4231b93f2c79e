// Bundles the CLI into dist/cli.cjs with esbuild: one CommonJS file, Node 20 target, so
// start-up reads one file instead of resolving hundreds of modules. CommonJS because Node 20
// loads it about 50 ms faster than the same code as an ES module (see docs/benchmarks.md).
// Lazy imports (the provider SDKs, secretlint) stay lazy: their code runs on first use only.
// The bash parser's two WebAssembly files are copied beside the bundle, which loads them from
// there (src/permissions/bash-parser.ts) the first time a bash rule is evaluated.
// The interactive terminal (src/tui/) is a second bundle, dist/tui.cjs, with its rendering
// library and highlighter: cli.cjs loads it only when `codewhale` opens an interactive session
// (src/cli/chat-command.ts), so `exec` and `--version` never parse it.
import { copyFileSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { basename } from "node:path";
import { build } from "esbuild";

const pkg = JSON.parse(readFileSync("package.json", "utf8"));
// Start from an empty dist/ so nothing from an earlier layout is left behind.
rmSync("dist", { recursive: true, force: true });

/** chat-command.ts's `import("../tui/index.ts")` becomes `require("./tui.cjs")` beside cli.cjs. */
const tuiChunk = {
  name: "tui-chunk",
  setup(on) {
    on.onResolve({ filter: /^\.\.\/tui\/index\.ts$/ }, () => ({
      path: "./tui.cjs",
      external: true,
    }));
  },
};

/** Both bundles: minified (names kept) to halve what V8 must parse; sourcemaps map it back. */
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
  define: { __CODEWHALE_VERSION__: JSON.stringify(pkg.version) },
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
});

await build({
  ...common,
  entryPoints: { cli: "src/cli/main.ts" },
  plugins: [tuiChunk],
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
  external: ["@xterm/headless", "gpt-tokenizer", "markdown-it"],
});

const require = createRequire(import.meta.url);
for (const wasm of ["web-tree-sitter/tree-sitter.wasm", "tree-sitter-bash/tree-sitter-bash.wasm"]) {
  const from = require.resolve(wasm);
  copyFileSync(from, `dist/${basename(from)}`);
}

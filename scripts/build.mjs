// Bundles the CLI into dist/cli.js with esbuild: ESM, Node 20 target, so start-up reads one
// file instead of resolving hundreds of modules. Lazy imports (the provider SDKs, secretlint)
// are split into chunks under dist/chunks/ that load only when a run needs them.
import { readFileSync, rmSync } from "node:fs";
import { build } from "esbuild";

const pkg = JSON.parse(readFileSync("package.json", "utf8"));
// Chunk names carry content hashes: start from an empty dist/ so no stale chunk is left behind.
rmSync("dist", { recursive: true, force: true });

await build({
  entryPoints: { cli: "src/cli/main.ts" },
  outdir: "dist",
  chunkNames: "chunks/[name]-[hash]",
  splitting: true,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  sourcemap: "linked",
  legalComments: "none",
  // Minified (names kept) to halve what V8 must parse at start-up; sourcemaps map it back.
  minify: true,
  keepNames: true,
  // CommonJS dependencies inside an ESM bundle need a require of their own.
  banner: {
    js: "import { createRequire as __cwCreateRequire } from 'node:module'; const require = __cwCreateRequire(import.meta.url);",
  },
  define: { __CODEWHALE_VERSION__: JSON.stringify(pkg.version) },
  logLevel: "warning",
});

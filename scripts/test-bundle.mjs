// Bundles the selected test files (and the src/ and test/support modules they import, and the
// packages of BUNDLED) into .test-build/ once per run, so each test process loads a few plain
// ES modules instead of transforming hundreds of TypeScript files through tsx's loader hooks.
// `import.meta.url` (and its dirname, filename and relative resolve) keeps naming the original
// source file, so relative paths still work.
import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { build, transform } from "esbuild";

const keepMetaUrl = {
  name: "keep-import-meta-url",
  setup(b) {
    b.onLoad({ filter: /\.(?:ts|mts|js|mjs)$/ }, async (args) => {
      if (args.path.includes("/node_modules/")) return undefined;
      const text = await readFile(args.path, "utf8");
      if (!text.includes("import.meta.")) return undefined;
      const url = pathToFileURL(args.path).href;
      // `define` replaces the expressions only, never the same words inside a string.
      const resolver = `const __testResolve = (s) => (s.startsWith(".") ? new URL(s, ${JSON.stringify(url)}).href : import.meta.resolve(s));\n`;
      const { code } = await transform(text, {
        loader: /\.m?ts$/.test(args.path) ? "ts" : "js",
        format: "esm",
        sourcefile: args.path,
        define: {
          "import.meta.url": JSON.stringify(url),
          "import.meta.dirname": JSON.stringify(dirname(args.path)),
          "import.meta.filename": JSON.stringify(args.path),
          "import.meta.resolve": "__testResolve",
        },
      });
      return { contents: resolver + code, loader: "js", resolveDir: dirname(args.path) };
    });
  },
};

/**
 * The packages bundled with the tests (ES modules, or CommonJS ones imported statically, whose
 * interop esbuild gives as Node does): through Node's loader each costs a process that imports
 * it hundreds of small files, zod alone ~100 ms of CPU, and nearly every test process imports
 * zod and an SDK. The rest stay in node_modules: native modules, WebAssembly and data files read
 * beside their module, packages imported with `import()` as CommonJS (ajv), and those whose
 * module URL matters (pi-tui). One copy of each per process either way: the sources and the
 * tests import the same chunk.
 */
const BUNDLED =
  /^(zod|@anthropic-ai\/sdk|openai|commander|@modelcontextprotocol\/sdk|@agentclientprotocol\/sdk|diff|ignore|chalk|node-fetch|smol-toml|fastest-levenshtein)(\/|$)/;
const packagesExternal = {
  name: "packages-external",
  setup(b) {
    b.onResolve({ filter: /^[^./#]/ }, (args) =>
      args.path.startsWith("node:") || BUNDLED.test(args.path)
        ? undefined
        : { path: args.path, external: true },
    );
  },
};

/**
 * Bundles `files` (paths under test/) into `outDir` (inside the repository, so packages resolve
 * from node_modules as from the sources); returns the bundled path of each, in order.
 */
export async function bundleTests(files, outDir) {
  await build({
    entryPoints: files,
    outdir: outDir,
    outbase: ".",
    outExtension: { ".js": ".mjs" },
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    plugins: [packagesExternal, keepMetaUrl],
    // The sources' `require` (for CommonJS packages loaded on demand) works as in tsx.
    banner: {
      js: 'import { createRequire as __testRequire } from "node:module"; const require = __testRequire(import.meta.url);',
    },
    logLevel: "warning",
  });
  return files.map((f) => join(outDir, f.replace(/\.ts$/, ".mjs")));
}

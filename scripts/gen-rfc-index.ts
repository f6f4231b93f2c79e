// Writes docs/rfc/INDEX.md from the RFC files: `node --import tsx scripts/gen-rfc-index.ts
// [--root DIR]` (npm run docs:index). Refuses, writing nothing, while the tree breaks a
// structure rule or an H1 does not parse. The walker and renderer live in rfc-index.ts.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { INDEX_PATH, indexEntries, renderIndex, runScript, walkRfcTree } from "./rfc-index.ts";

process.exitCode = runScript("gen-rfc-index", process.argv.slice(2), (root) => {
  const tree = walkRfcTree(root);
  if (tree.violations.length > 0) return { violations: tree.violations, summary: "" };
  const rfcs = indexEntries(tree);
  writeFileSync(join(root, INDEX_PATH), renderIndex(rfcs));
  return { violations: [], summary: `wrote ${INDEX_PATH} (${rfcs.length} RFCs)` };
});

// Checks where RFCs sit: the closed lifecycle and class folder sets, file names, parseable H1s,
// that docs/rfc/INDEX.md equals a fresh render byte for byte, and that the curated README lists
// no RFCs. `node --import tsx scripts/verify-rfc-classification.ts [--root DIR]`, in docs:check.
import {
  checkIndexCurrent,
  findIndexRows,
  INDEX_PATH,
  runScript,
  walkRfcTree,
} from "./rfc-index.ts";

process.exitCode = runScript("verify-rfc-classification", process.argv.slice(2), (root) => {
  const tree = walkRfcTree(root);
  // A stale index is only worth reporting once the tree it is rendered from is sound.
  const drift = tree.violations.length === 0 ? checkIndexCurrent(root, tree) : [];
  return {
    violations: [...tree.violations, ...findIndexRows(root), ...drift],
    summary: `${tree.rfcs.length} RFCs classified; ${INDEX_PATH} is current`,
  };
});

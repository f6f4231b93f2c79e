// Which test files of a run share one Node process (issue #28: each process costs ~0.2 s of CPU
// to start and load its chunks). A file may share only if its source, and the test/ files it
// references (as test-selection.mjs follows them), touch no process-wide state (BATCH_RULES);
// the cheap ones among them are packed, in path order, into batch entry modules that import
// their bundled files one after another (Node runs a process's top-level tests one at a time).
import { writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { walkReferences } from "./test-selection.mjs";

const ASSIGN = String.raw`\s*(?:[-+*/%&|^]|\?\?|\|\||&&)?=(?!=)`;
/**
 * What keeps a file in a process of its own. Hooks at the root of a shared process apply to, or
 * run before, every file's tests (a root `after` only runs once all are done, so it may share).
 * Conservative: a hook inside a describe, or a word in a comment, keeps a file alone too.
 */
export const BATCH_RULES = [
  ["a before, beforeEach or afterEach hook", /\b(?:before|beforeEach|afterEach)\s*\(/],
  [
    "a process.env change",
    new RegExp(
      String.raw`process\.env(?:\.\w+|\[[^\]]+\])?${ASSIGN}|delete\s+process\.env|Object\.(?:assign|defineProperty|defineProperties|setPrototypeOf)\(\s*process\.env\b`,
    ),
  ],
  ["process.chdir", /process\.chdir\s*\(/],
  ["process.umask", /process\.umask\s*\(/],
  [
    "a node:test mock",
    /\bmock\.(?:method|getter|setter|fn|timers|module|property|restoreAll|reset)\b/,
  ],
  [
    "a process event handler",
    /process\.(?:on|once|off|addListener|prependListener|prependOnceListener|removeListener|removeAllListeners|setMaxListeners|setUncaughtExceptionCaptureCallback)\s*\(/,
  ],
  [
    "process.exit or exitCode",
    /process\.exitCode|process\.(?:exit|abort|reallyExit)\s*\(|process\.kill\s*\(\s*process\.pid/,
  ],
  [
    "an assignment to a global",
    new RegExp(
      String.raw`\b(?:globalThis|global|process|console|Date|Math|JSON|Object|Array|Function|String|Number|Symbol|Promise|Reflect|RegExp|Error|Buffer|URL|Intl|performance|crypto|EventEmitter)(?:\.\w+)+${ASSIGN}`,
    ),
  ],
  [
    "a process-wide setting",
    /\b(?:setDefaultResultOrder|setGlobalDispatcher|setFlagsFromString|setDefaultAutoSelectFamily|setSourceMapsEnabled)\s*\(|\bprocess\.set\w+\s*\(|\bmodule\.register\s*\(/,
  ],
];

/**
 * Why `file` must run in a process of its own ("<rule> in <path>"), or null when it may share
 * one: the first rule its source, or a file under `within` it references, breaks.
 */
export function whyAlone(file, within = "test") {
  const why = walkReferences(
    [file],
    (path, text) => {
      const broken = BATCH_RULES.find(([, pattern]) => pattern.test(text));
      return broken ? `${broken[0]} in ${relative(".", path)}` : undefined;
    },
    within,
  );
  return why ?? null;
}

/** Files whose tests took less than this many seconds in the measured run may share a process. */
export const CHEAP = 1;
/** A batch holds files of about this many seconds of tests in all. */
export const BATCH_SECONDS = 2.5;

/**
 * Splits `files` into those run alone and batches of cheap files that may share a process
 * (`cost(file)` in seconds, `alone(file)` a reason or null), packed in path order so a batch's
 * files load mostly the same chunks; a run of one file, or one cheap file left over, never batches.
 */
export function planBatches(files, cost, alone = whyAlone) {
  const cheap =
    files.length > 1 ? files.filter((f) => cost(f) < CHEAP && alone(f) === null).sort() : [];
  const batches = [];
  let seconds = BATCH_SECONDS;
  for (const file of cheap) {
    if (seconds + cost(file) > BATCH_SECONDS) {
      batches.push([]);
      seconds = 0;
    }
    batches.at(-1).push(file);
    seconds += cost(file);
  }
  if (batches.at(-1)?.length === 1) batches.pop();
  const batched = new Set(batches.flat());
  return { single: files.filter((f) => !batched.has(f)), batches };
}

/**
 * Writes `batch-NN.mjs` into `bundleDir` for each batch (importing its files' bundled modules,
 * `bundled(file)`, in order) and returns the paths Node's runner gets: single files and batches
 * together, the costliest first (a batch costs its files' sum; ties keep the plan's order).
 */
export function writeBatches(plan, bundled, cost, bundleDir) {
  const units = plan.single.map((file) => ({ path: bundled(file), cost: cost(file) }));
  plan.batches.forEach((batch, index) => {
    const path = join(bundleDir, `batch-${String(index + 1).padStart(2, "0")}.mjs`);
    const lines = batch.map((file) => `import "./${relative(bundleDir, bundled(file))}";\n`);
    writeFileSync(
      path,
      `// ${batch.length} test files in one process (scripts/test-batches.mjs)\n${lines.join("")}`,
    );
    units.push({ path, cost: batch.reduce((sum, file) => sum + cost(file), 0) });
  });
  return units
    .map((unit, index) => ({ ...unit, index }))
    .sort((a, b) => b.cost - a.cost || a.index - b.index)
    .map(({ path }) => path);
}

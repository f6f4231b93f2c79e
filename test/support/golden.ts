// Golden files for visible output: `normalise` replaces what differs between runs (temp paths,
// session ids, times, durations, hashes, sizes, the mock's port) with fixed placeholders, and
// `matchGolden` compares the result byte for byte with test/fixtures/golden/<name>. With
// UPDATE_GOLDEN=1 in the environment it writes the file instead (`UPDATE_GOLDEN=1 node
// scripts/test.mjs golden`); used by test/cli/golden-session.test.ts.
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { repoRoot } from "./repo-root.ts";

export const GOLDEN_DIR = join(repoRoot, "test", "fixtures", "golden");

/** The run-specific strings to name. */
export interface NormaliseContext {
  /** Directories made for the run and their placeholders, e.g. `[[home, "<HOME>"]]`. */
  paths: Array<[path: string, placeholder: string]>;
  /** The mock provider's `http://127.0.0.1:<port>`, shown as `<MOCK>`. */
  mockUrl?: string;
}

/** The context of a run in a temp `home` and `workspace` (also as their real paths). */
export function runContext(
  dirs: { home: string; workspace: string },
  mockUrl?: string,
): NormaliseContext {
  const paths: NormaliseContext["paths"] = [];
  for (const [dir, placeholder] of [
    [dirs.home, "<HOME>"],
    [dirs.workspace, "<WORKSPACE>"],
  ] as const) {
    paths.push([dir, placeholder]);
    if (realpathSync(dir) !== dir) paths.push([realpathSync(dir), placeholder]);
  }
  return mockUrl === undefined ? { paths } : { paths, mockUrl };
}

/**
 * The rules, applied in this order (each documented by its placeholder):
 * - the run's directories (longest first) → their names, e.g. `<HOME>`, `<WORKSPACE>`;
 * - the mock's URL → `<MOCK>`;
 * - a UUID (session ids: uuidv7) → `<ID>`, and the short id beside it, `<ID> (1a2b3c4d)` →
 *   `<ID> (<SHORT>)` (in JSON, `"shortId":"<SHORT>"`);
 * - a session log's dated folder `sessions/2026/12/01/` → `sessions/<DATE>/`;
 * - an ISO-8601 time → `<TIME>`;
 * - a 64-digit hex string (hash chain, config fingerprint) → `<HASH>`, and a sandbox
 *   `policy_hash` and a sandbox note's `(policy …)` (they cover the temp workspace's path) too;
 * - a signing key's fingerprint `SHA256:<base64>` (a new key per run) → `SHA256:<KEY>`, and a
 *   checkpoint's JSON `"sig":"<base64>"` → `"sig":"<SIG>"`;
 * - a JSON duration, `"duration_ms":123` (and `turn_ms`, `request_ms`, `span_ms` of the
 *   session figures) → `0`;
 * - `sessions show`'s header line `  duration  …` (wall-clock times) → `  duration  <DURATION>`;
 * - a person's duration at the end of a line after ` · ` (exec's tool lines: `· 34 ms`,
 *   `· 1.4 s`) → `· <DURATION>`;
 * - the log's size, `(1234 bytes)` in `sessions show`'s header and `"bytes":1234` in its
 *   `--json` summary → `(<N> bytes)` and `"bytes":0` (it depends on the temp paths' length).
 * Everything else (seq numbers, usage, cost, tool call ids, request ids of a fresh mock, the
 * version) is deterministic and kept.
 */
export function normalise(text: string, context: NormaliseContext): string {
  let out = text;
  const paths = [...context.paths].sort(([a], [b]) => b.length - a.length);
  for (const [path, placeholder] of paths) out = out.split(path).join(placeholder);
  if (context.mockUrl) out = out.split(context.mockUrl).join("<MOCK>");
  return out
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, "<ID>")
    .replace(/<ID> \([0-9a-f]{8}\)/g, "<ID> (<SHORT>)")
    .replace(/"shortId":"[0-9a-f]{8}"/g, '"shortId":"<SHORT>"')
    .replace(/^ {2}duration {2}.*$/gm, "  duration  <DURATION>")
    .replace(/sessions\/\d{4}\/\d{2}\/\d{2}\//g, "sessions/<DATE>/")
    .replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})/g, "<TIME>")
    .replace(/\b[0-9a-f]{64}\b/g, "<HASH>")
    .replace(/"policy_hash":"[0-9a-f]{16}"/g, '"policy_hash":"<HASH>"')
    .replace(/\(policy [0-9a-f]{16}\)/g, "(policy <HASH>)")
    .replace(/SHA256:[A-Za-z0-9+/]{43}/g, "SHA256:<KEY>")
    .replace(/"sig":"[A-Za-z0-9+/=]+"/g, '"sig":"<SIG>"')
    .replace(/"(duration|turn|request|span)_ms":\d+/g, '"$1_ms":0')
    .replace(/ · (\d+(\.\d)? (ms|s)|\d+ m \d\d s|\d+ h \d\d m)$/gm, " · <DURATION>")
    .replace(/\(\d+ bytes\)/g, "(<N> bytes)")
    .replace(/"bytes":\d+/g, '"bytes":0');
}

/** Whether this run rewrites the golden files rather than checking them. */
export function updatingGoldens(): boolean {
  return process.env.UPDATE_GOLDEN === "1";
}

/**
 * Compares `actual` with the golden file `name` (under `dir`, by default test/fixtures/golden/),
 * byte for byte;
 * on a mismatch the assertion shows a line diff and how to accept the change on purpose.
 */
export function matchGolden(name: string, actual: string, dir: string = GOLDEN_DIR): void {
  const path = join(dir, name);
  if (updatingGoldens()) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, actual);
    return;
  }
  assert.ok(
    existsSync(path),
    `no golden file ${path}: run UPDATE_GOLDEN=1 node scripts/test.mjs golden`,
  );
  const expected = readFileSync(path, "utf8");
  if (actual === expected) return;
  assert.fail(
    `${name} differs from its golden file (- golden, + actual):\n${lineDiff(expected, actual)}\n` +
      "If the change is intended, run UPDATE_GOLDEN=1 node scripts/test.mjs golden and say why " +
      "in the commit message.",
  );
}

/**
 * A readable line diff: the lines of a longest common subsequence kept as context (`  `),
 * the golden's other lines as `- ` and the actual's as `+ `. Long runs of equal lines are cut
 * to three of context on each side. Golden files are small, so the quadratic table is fine.
 */
export function lineDiff(expected: string, actual: string): string {
  const a = expected.split("\n");
  const b = actual.split("\n");
  const lcs: number[][] = Array.from({ length: a.length + 1 }, () =>
    new Array<number>(b.length + 1).fill(0),
  );
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i]![j] =
        a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
    }
  }
  const rows: Array<{ mark: " " | "-" | "+"; line: string }> = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      rows.push({ mark: " ", line: a[i++]! });
      j++;
    } else if (i < a.length && (j === b.length || lcs[i + 1]![j]! >= lcs[i]![j + 1]!)) {
      rows.push({ mark: "-", line: a[i++]! });
    } else rows.push({ mark: "+", line: b[j++]! });
  }
  const near = (at: number) =>
    rows.slice(Math.max(0, at - 3), at + 4).some((row) => row.mark !== " ");
  const shown: string[] = [];
  let skipped = false;
  rows.forEach((row, at) => {
    if (row.mark !== " " || near(at)) {
      if (skipped) shown.push("  …");
      skipped = false;
      shown.push(`${row.mark} ${row.line}`);
    } else skipped = true;
  });
  return shown.join("\n");
}

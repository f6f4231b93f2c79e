// `codewhale capture --cols N --rows M` against what a terminal of that size showed: the sized
// corpus (test/fixtures/captures/, made by its capture.mjs under tmux at 80×24, 120×40 and
// 200×50 from real programs: top, full-screen programs killed in the alternate screen, npm,
// apt, ls and git in 256 and 24-bit colour, tqdm and rich progress, long lines). Each capture's
// bytes go through the output pipeline with capture's policy at the capture's size; the CLI
// itself (`capture -- cat <raw>`) is checked to print the same for one capture per size. The
// floor is 95 % identical row for row with tmux's view (docs/benchmarks.md); no output may hold
// a control character. A program killed inside the alternate screen leaves its last frame on
// the terminal, below the scrollback, and so does capture.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { createOutputPipeline } from "../../src/runner/index.ts";
import { normalise, STRAY_CONTROL } from "../runner/support/terminal-corpus.ts";

const FLOOR = 0.95;
const SIZES = ["80x24", "120x40", "200x50"];
const DIR = fileURLToPath(new URL("../fixtures/captures/", import.meta.url));
const repoRoot = fileURLToPath(new URL("../..", import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), "cw-capture-sizes-"));
after(() => rmSync(tmp, { recursive: true, force: true }));

interface SizedCapture {
  id: string;
  program: string;
  mode: "pty" | "pipe";
  cols: number;
  rows: number;
  /** The screen tmux showed at the end: the alternate one when the program was killed in it. */
  screen: "normal" | "alternate";
}

const corpus = JSON.parse(readFileSync(join(DIR, "manifest.json"), "utf8")) as SizedCapture[];
const MAX_BYTES = 10_000_000;

/** What capture prints for the bytes: its policy (no spill, redaction on) at the given size. */
async function render(capture: SizedCapture): Promise<string> {
  const terminal = { cols: capture.cols, rows: capture.rows };
  const policy = { maxBytes: MAX_BYTES, spillToTemp: false, redactSecrets: true, terminal };
  const pipeline = createOutputPipeline(policy);
  await pipeline.push(readFileSync(join(DIR, `${capture.id}.raw`)));
  const result = await pipeline.end();
  assert.deepEqual(result.policyErrors, [], capture.id);
  return result.output;
}

function reference(capture: SizedCapture): string {
  return normalise(readFileSync(join(DIR, `${capture.id}.ref`), "utf8"));
}

function firstDifference(got: string, want: string): string {
  const a = got.split("\n");
  const b = want.split("\n");
  const row = a.findIndex((line, at) => line !== b[at]);
  const at = row < 0 ? a.length : row;
  return `row ${at + 1}: got ${JSON.stringify(a[at] ?? "<none>")} want ${JSON.stringify(b[at] ?? "<none>")} (${a.length} vs ${b.length} rows)`;
}

describe("capture --cols --rows against real terminals of three sizes", () => {
  it("has real programs captured at 80×24, 120×40 and 200×50, on a pty and through a pipe", () => {
    const programs = new Set(corpus.map((capture) => capture.program));
    assert.ok(programs.size >= 20, `${programs.size} programs`);
    for (const size of SIZES) {
      const at = corpus.filter((capture) => `${capture.cols}x${capture.rows}` === size);
      assert.equal(new Set(at.map((capture) => capture.program)).size, programs.size, size);
    }
    assert.ok(corpus.some((capture) => capture.mode === "pipe"));
  });

  it("shows at least 95 % of captures exactly as the terminal of that size showed them", async () => {
    const differ: string[] = [];
    for (const capture of corpus) {
      const output = await render(capture);
      assert.doesNotMatch(output, STRAY_CONTROL, capture.id);
      const want = reference(capture);
      const got = normalise(output);
      if (got !== want) differ.push(`${capture.id}: ${firstDifference(got, want)}`);
    }
    for (const line of differ) console.log(`# differs: ${line}`);
    const identical = corpus.length - differ.length;
    console.log(`# identical: ${identical}/${corpus.length}`);
    const share = identical / corpus.length;
    assert.ok(share >= FLOOR, `${(share * 100).toFixed(1)} % identical, floor ${FLOOR * 100} %`);
  });

  for (const size of SIZES) {
    it(`the CLI prints the same at ${size}: codewhale capture --cols --rows -- cat <raw>`, async () => {
      const capture = corpus.find((c) => c.program === "top" && `${c.cols}x${c.rows}` === size);
      assert.ok(capture, size);
      const args = ["capture", "--cols", String(capture.cols), "--rows", String(capture.rows)];
      const run = spawnSync(
        process.execPath,
        [
          join(repoRoot, "bin/codewhale.cjs"),
          ...args,
          "--max-bytes",
          String(MAX_BYTES),
          "--",
          "cat",
          join(DIR, `${capture.id}.raw`),
        ],
        {
          encoding: "utf8",
          env: { PATH: process.env.PATH, TMPDIR: tmp, HOME: tmp, CODEWHALE_HOME: join(tmp, "h") },
        },
      );
      assert.equal(run.status, 0, run.stderr);
      assert.equal(run.stdout, await render(capture));
      assert.equal(normalise(run.stdout), reference(capture));
    });
  }
});

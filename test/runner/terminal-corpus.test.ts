// Output as the terminal showed it: every capture of the real-program corpus
// (test/fixtures/terminal/) through the real output pipeline, sized like the pty it ran in
// (pipes: the `[output]` defaults, no wrap), against what tmux showed once the program ended.
// The floor is 95 % identical; no output may hold an ESC or any other stray control character.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { PolicyResult } from "../../src/runner/index.ts";
import { createOutputPipeline } from "../../src/runner/index.ts";
import type { Capture, Scored } from "./support/terminal-corpus.ts";
import { loadCorpus, rawBytes, score } from "./support/terminal-corpus.ts";

const FLOOR = 0.95;
const POLICY = { maxBytes: 10_000_000, spillToTemp: false, redactSecrets: true };

/** The capture's bytes as the runner reads them: in pipe-sized pieces. */
async function render(capture: Capture, piece = 4096): Promise<PolicyResult> {
  const terminal =
    capture.mode === "pty" ? { cols: capture.cols, rows: capture.rows, pty: true } : undefined;
  const pipeline = createOutputPipeline(POLICY, terminal ? { terminal } : {});
  const raw = rawBytes(capture);
  for (let at = 0; at < raw.length; at += piece) await pipeline.push(raw.subarray(at, at + piece));
  return pipeline.end();
}

describe("terminal corpus", () => {
  const corpus = loadCorpus();

  it("has captures of at least 40 real programs and synthetic streams, pty and pipe", () => {
    assert.ok(corpus.length >= 40, `${corpus.length} captures`);
    assert.ok(corpus.some((capture) => capture.mode === "pipe"));
    assert.ok(new Set(corpus.map((capture) => capture.program)).size >= 30);
  });

  it("shows at least 95 % of captures exactly as the terminal showed them, never a control character", async () => {
    const results: Scored[] = [];
    for (const capture of corpus) {
      const result = await render(capture);
      assert.deepEqual(result.policyErrors, [], capture.id);
      results.push(score(capture, result.output));
    }
    const failures = results.filter((result) => !result.identical);
    for (const failure of failures) {
      console.log(`# differs: ${failure.capture.id}: ${failure.firstDifference}`);
    }
    const share = 1 - failures.length / results.length;
    console.log(`# identical: ${results.length - failures.length}/${results.length}`);
    assert.deepEqual(
      results.filter((result) => result.strayControl).map((result) => result.capture.id),
      [],
      "outputs with a stray control character",
    );
    assert.ok(share >= FLOOR, `${(share * 100).toFixed(1)} % identical, floor ${FLOOR * 100} %`);
  });

  it("gives the same output however the bytes are split into reads", async () => {
    for (const capture of corpus) {
      const whole = await render(capture, 1 << 30);
      const bytewise = await render(capture, 7);
      assert.equal(bytewise.output, whole.output, capture.id);
    }
  });
});

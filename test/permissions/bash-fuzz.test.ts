// The differential fuzz against real bash, deterministic: the first CODEWHALE_FUZZ_LINES
// (default 300; the full run is 22,000, in `npm run bench -- bash`) lines of seed 1, run by
// bash with tracing stubs and read by the parser. No line may run a program the parser did
// not report unless the parser flagged the line as uncertain (which no allow rule matches).
// The parser before the fuzz's fixes (b94127e) fails 7 of these 300 lines, among them each kind
// fixed there (a redirect's destination, a reserved word, a comment, a newline inside a word).
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: bash `${…}` expansions are the data
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { loadBashParser } from "../../src/permissions/bash-parser.ts";
import { generateCommands } from "../support/bash-fuzz/generate.ts";
import { differentialFuzz } from "../support/bash-fuzz/run.ts";

const LINES = Number(process.env.CODEWHALE_FUZZ_LINES ?? 300);

before(() => loadBashParser());

describe("the parser against real bash", () => {
  it(`${LINES} generated lines: bash runs nothing the parser did not report`, async () => {
    // One bash process: the suite runs two test files at once on two cores, and timing tests
    // (the stream idle watch) must not starve beside this one.
    const report = await differentialFuzz(generateCommands(1, LINES), { shards: 1 });
    assert.ok(report.executions > LINES / 2, `bash ran only ${report.executions} programs`);
    assert.ok(report.uncertain < LINES / 2, `${report.uncertain} lines uncertain`);
    const shown = report.failures.slice(0, 5).map((f) => `${JSON.stringify(f.line)} ran ${f.ran}`);
    assert.deepEqual(shown, []);
  });

  it("the harness catches a parser that misses what bash runs", async () => {
    const blind = () => ({ commands: [], uncertain: false });
    const lines = ["r\\\nm x", "$'\\x72\\x6d' x", "{r,}m x", "./bin/r? x", "rm${IFS}x"];
    const report = await differentialFuzz(lines, { split: blind, shards: 1 });
    assert.deepEqual(
      report.failures.map((failure) => failure.ran),
      [["rm x"], ["rm x"], ["rm m x"], ["rm x"], ["rm x"]],
    );
  });
});

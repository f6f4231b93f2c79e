// The golden-file helpers of test/support/golden.ts: what the normaliser replaces (and what it
// keeps), and that a golden mismatch fails with a line diff naming the file.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { lineDiff, matchGolden, normalise, updatingGoldens } from "../support/golden.ts";

describe("golden files: the normaliser", () => {
  it("replaces temp paths, the mock URL, ids, times, hashes, durations and log sizes", () => {
    const text = [
      '{"log_path":"/tmp/x/cw-exec-home-AbC/sessions/2026/12/01/019ad8f0-1c2b-7c3d-8e4f-0123456789ab.jsonl"}',
      '{"cwd":"/tmp/x/cw-exec-ws-XyZ/sub","ts":"2026-12-01T09:33:58.123Z","h":"' +
        "ab".repeat(32) +
        '"}',
      '{"base":"http://127.0.0.1:40123/v1","duration_ms":1234,"seq":7,"cost":0.0018}',
      '{"turn_ms":12,"request_ms":3,"span_ms":40,"max_ms":5}',
      "  events   25 (7311 bytes)",
      '{"bytes":7311,"original_bytes":12}',
    ].join("\n");
    const out = normalise(text, {
      paths: [
        ["/tmp/x/cw-exec-home-AbC", "<HOME>"],
        ["/tmp/x/cw-exec-ws-XyZ", "<WORKSPACE>"],
      ],
      mockUrl: "http://127.0.0.1:40123",
    });
    assert.equal(
      out,
      [
        '{"log_path":"<HOME>/sessions/<DATE>/<ID>.jsonl"}',
        '{"cwd":"<WORKSPACE>/sub","ts":"<TIME>","h":"<HASH>"}',
        '{"base":"<MOCK>/v1","duration_ms":0,"seq":7,"cost":0.0018}',
        '{"turn_ms":0,"request_ms":0,"span_ms":0,"max_ms":5}',
        "  events   25 (<N> bytes)",
        '{"bytes":0,"original_bytes":12}',
      ].join("\n"),
    );
  });

  it("the longer of two nested paths is replaced first", () => {
    const out = normalise("/a/b/c and /a/b", {
      paths: [
        ["/a/b", "<OUTER>"],
        ["/a/b/c", "<INNER>"],
      ],
    });
    assert.equal(out, "<INNER> and <OUTER>");
  });
});

describe("golden files: a mismatch", () => {
  it("shows the changed lines with context, and skips far-away equal lines", () => {
    const expected = ["a", "b", "c", "d", "e", "f", "g", "h", "i"].join("\n");
    const actual = ["a", "b", "c", "d", "e", "f", "g", "H", "i"].join("\n");
    assert.equal(
      lineDiff(expected, actual),
      ["  …", "  e", "  f", "  g", "- h", "+ H", "  i"].join("\n"),
    );
  });

  it("fails naming the file and how to accept the change", { skip: updatingGoldens() }, () => {
    assert.throws(
      () => matchGolden("sessions-show.txt", "not the golden\n"),
      (error: Error) =>
        error.message.includes("sessions-show.txt differs from its golden file") &&
        error.message.includes("+ not the golden") &&
        error.message.includes("UPDATE_GOLDEN=1 node scripts/test.mjs golden"),
    );
  });
});

// Bounded reads of a background log: a range within the budget comes back whole; a larger one,
// up to a sparse 5 GiB log, as its head and tail cut at lines with a marker naming the left-out
// byte range, never read; while the command runs, a half-written last line waits.
import assert from "node:assert/strict";
import { closeSync, ftruncateSync, mkdtempSync, openSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { readLogWindow } from "../../src/runner/log-window.ts";

const dir = mkdtempSync(join(tmpdir(), "cw-log-window-"));
after(() => rmSync(dir, { recursive: true, force: true }));

/** A log of `size` bytes: lines at both ends, a hole (sparse, costs no disk) between. */
function sparseLog(name: string, size: number): string {
  const path = join(dir, name);
  const fd = openSync(path, "w");
  const lines = (prefix: string) =>
    Array.from({ length: 2000 }, (_, i) => `${prefix} line ${i}\n`).join("");
  writeSync(fd, lines("first"), 0);
  ftruncateSync(fd, size);
  const tail = Buffer.from(`\n${lines("last")}`);
  writeSync(fd, tail, 0, tail.length, size - tail.length);
  closeSync(fd);
  return path;
}

describe("bounded background-log reads", () => {
  for (const [label, size] of [
    ["a 700 MB log", 700 * 1024 * 1024],
    ["a 5 GiB log, past what one Buffer can hold", 5 * 1024 ** 3],
  ] as const) {
    it(`keeps the head and tail of ${label} within the budget and says what was left out`, async () => {
      const path = sparseLog(`big-${size}.log`, size);
      const window = await readLogWindow(path, {
        start: 0,
        end: size,
        maxBytes: 30_000,
        wholeLines: false,
      });
      assert.equal(window.truncated, true);
      assert.equal(window.newBytes, size);
      assert.equal(window.end, size);
      assert.ok(window.output.startsWith("first line 0\nfirst line 1\n"));
      assert.ok(window.output.endsWith("last line 1999\n"));
      const marker =
        /(?<=\n)\[… (\d+) bytes omitted \(not read\); new output (\d+) bytes; the omitted text is bytes (\d+)-(\d+) of (.+) …\]\n/.exec(
          window.output,
        );
      assert.ok(marker, window.output.slice(0, 200));
      const [, omitted, total, from, to, named] = marker;
      assert.equal(Number(total), size);
      assert.equal(named, path);
      assert.equal(Number(to) - Number(from), Number(omitted));
      const kept = Buffer.byteLength(window.output) - Buffer.byteLength(marker[0]);
      assert.equal(kept + Number(omitted), size, "kept and omitted add up to the new bytes");
      assert.ok(kept <= 30_000, `kept ${kept} bytes`);
      // Cut at lines: the head ends with a whole line, the tail starts with one.
      assert.match(window.output.slice(0, marker.index), /first line \d+\n$/);
      assert.match(window.output.slice(marker.index + marker[0].length), /^last line \d+\n/);
    });
  }

  it("returns a range within the budget whole, from where the last read ended", async () => {
    const path = sparseLog("small.log", 200_000);
    const window = await readLogWindow(path, {
      start: 0,
      end: 1000,
      maxBytes: 30_000,
      wholeLines: false,
    });
    assert.equal(window.truncated, false);
    assert.equal(window.output.length, 1000);
    assert.ok(window.output.startsWith("first line 0\n"));
    const next = await readLogWindow(path, {
      start: window.end,
      end: 1000,
      maxBytes: 30_000,
      wholeLines: false,
    });
    assert.deepEqual([next.output, next.newBytes, next.end], ["", 0, 1000]);
  });

  it("holds back a half-written last line while the command runs", async () => {
    const path = join(dir, "partial.log");
    const fd = openSync(path, "w");
    writeSync(fd, "done line\nhalf a li");
    closeSync(fd);
    const running = await readLogWindow(path, {
      start: 0,
      end: 19,
      maxBytes: 30_000,
      wholeLines: true,
    });
    assert.deepEqual([running.output, running.end], ["done line\n", 10]);
    const rest = await readLogWindow(path, {
      start: running.end,
      end: 19,
      maxBytes: 30_000,
      wholeLines: true,
    });
    assert.deepEqual([rest.output, rest.end], ["", 10], "still waiting for the newline");
    const exited = await readLogWindow(path, {
      start: running.end,
      end: 19,
      maxBytes: 30_000,
      wholeLines: false,
    });
    assert.equal(exited.output, "half a li");
  });
});

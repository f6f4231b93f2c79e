// In process: a terminal that hangs up (EIO) is a reader that went away, like a closed pipe;
// listeners hear it once, and a failing stderr is dropped rather than thrown.
import assert from "node:assert/strict";
import { EventEmitter } from "node:events";
import { describe, it } from "node:test";
import { onStdoutReaderGone, watchStdout } from "../../src/cli/stdout-reader.ts";

function errno(code: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`write ${code}`), { code });
}

describe("watchStdout", () => {
  it("treats EIO as the reader gone, tells listeners once, and drops stderr errors", () => {
    const stdout = new EventEmitter() as unknown as NodeJS.WriteStream;
    const stderr = new EventEmitter() as unknown as NodeJS.WriteStream;
    watchStdout(stdout, stderr);
    let heard = 0;
    onStdoutReaderGone(() => heard++);
    stdout.emit("error", errno("EIO"));
    stdout.emit("error", errno("EPIPE"));
    assert.equal(heard, 1);
    assert.doesNotThrow(() => stderr.emit("error", errno("EIO")));
    let late = 0;
    onStdoutReaderGone(() => late++);
    assert.equal(late, 1, "a listener added after the fact hears it at once");
  });
});

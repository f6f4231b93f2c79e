// How any error looks to a user: one line with the `codewhale:` prefix, the exit code its type
// names, and no control characters that could drive the terminal.
import assert from "node:assert/strict";
import { Writable } from "node:stream";
import { describe, it } from "node:test";
import { reportError } from "../../src/cli/fail.ts";
import { ConfigError, ExitCode } from "../../src/errors.ts";

function report(error: unknown): { text: string; code: number } {
  let text = "";
  const stderr = new Writable({
    write(chunk, _encoding, done) {
      text += String(chunk);
      done();
    },
  });
  const code = reportError(error, stderr);
  return { text, code };
}

describe("reportError", () => {
  it("prints the first line only, with the prefix, and returns the type's exit code", () => {
    const { text, code } = report(new ConfigError("bad key x\nmore detail"));
    assert.equal(text, "codewhale: bad key x\n");
    assert.equal(code, ExitCode.usage);
    assert.equal(report(new Error("boom")).code, ExitCode.failure);
  });

  it("shows control characters as escapes", () => {
    const { text } = report(new Error("server said \u001b]0;PWNED\u0007\u001b[2J done"));
    assert.equal(text, "codewhale: server said \\x1b]0;PWNED\\x07\\x1b[2J done\n");
  });
});

// `codewhale export verify` through the real CLI: a fresh export verifies (md, html, derived
// jsonl, the canonical copy), and one with --until after the log has grown; one character
// edited in the file, a receipt altered after signing or signed by another key, a log line
// changed at the source each fail with exit 1 and the reason; a missing source is exit 2.
import assert from "node:assert/strict";
import { generateKeyPairSync } from "node:crypto";
import { copyFileSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { SessionWriter } from "../../src/session/writer.ts";
import { runCli } from "../support/cli.ts";
import { hostileSession } from "../support/export-fixtures.ts";
import { editLine, tempDir } from "../support/session-fixtures.ts";

describe("codewhale export verify", () => {
  const setup = hostileSession();
  const out = tempDir("cw-verify-");
  const cli = (...args: string[]) => runCli(args, { env: setup.env, cwd: setup.home });
  const exported = (name: string, ...args: string[]): string => {
    const file = join(out, name);
    const run = cli("export", setup.id, "-o", file, ...args);
    assert.equal(run.status, 0, run.stderr);
    return file;
  };
  /** A copy of an export (and its sidecar) to damage. */
  const copyOf = (file: string, name: string): string => {
    const copy = join(out, name);
    copyFileSync(file, copy);
    copyFileSync(`${file}.receipt.json`, `${copy}.receipt.json`);
    return copy;
  };
  let md = "";
  let html = "";

  it("accepts a fresh export of every format, and an --until export after the log grew", () => {
    md = exported("a.md");
    html = exported("a.html", "--format", "html");
    const thinking = exported("a.jsonl", "--format", "jsonl", "--view", "thinking-only");
    const copy = exported("copy.jsonl", "--format", "jsonl", "--until", "6");
    const { writer } = SessionWriter.resume(setup.path);
    writer.append({ type: "user/message", text: "one more thing" });
    writer.close();
    for (const file of [md, html, thinking, copy]) {
      const run = cli("export", "verify", file);
      assert.equal(run.status, 0, `${file}: ${run.stderr}`);
      assert.match(
        run.stdout,
        /^ok .*source unchanged, output identical, receipt signed by SHA256:/,
      );
    }
  });

  it("a file edited by one character fails: file edited", () => {
    const file = copyOf(html, "edited.html");
    writeFileSync(file, readFileSync(file, "utf8").replace("Fixed.", "Fixed!"));
    const run = cli("export", "verify", file);
    assert.equal(run.status, 1);
    assert.match(run.stderr, /^codewhale: .*edited\.html: file edited/);
  });

  it("a receipt changed after signing, or signed by another key, fails: signature wrong", () => {
    const file = copyOf(md, "resigned.md");
    writeFileSync(file, readFileSync(file, "utf8").replace(/"last_seq":\d+/, '"last_seq":1'));
    renameSync(`${file}.receipt.json`, `${file}.moved`);
    const changed = cli("export", "verify", file);
    assert.equal(changed.status, 1);
    assert.match(changed.stderr, /signature wrong: the receipt was changed after it was signed/);
    const pem = generateKeyPairSync("ed25519").publicKey.export({ type: "spki", format: "pem" });
    const keyFile = join(out, "other.pub");
    writeFileSync(keyFile, String(pem));
    const foreign = cli("export", "verify", md, "--key", keyFile);
    assert.equal(foreign.status, 1);
    assert.match(
      foreign.stderr,
      /signature wrong: the receipt is signed by key SHA256:\S+, not by/,
    );
  });

  it("a source log rewritten before the exported seq fails: source changed", () => {
    editLine(setup.path, 1, (line) => line.replace("fix the", "wreck the"));
    const run = cli("export", "verify", md);
    assert.equal(run.status, 1);
    assert.match(run.stderr, /source changed: the first \d+ bytes of session/);
  });

  it("a missing source is exit 2 naming the session", () => {
    renameSync(setup.path, `${setup.path}.gone`);
    const run = cli("export", "verify", md);
    assert.equal(run.status, 2);
    assert.match(run.stderr, new RegExp(`source missing: session ${setup.id} is not in`));
  });
});

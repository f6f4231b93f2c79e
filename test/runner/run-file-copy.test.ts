// The copy of a run-on-host entry kept before a sandboxed command (src/runner/run-file-copy.ts):
// a file, a folder and a link are copied as they are and put back exactly; a file reached
// through a folder that is a link (what a background command racing the copy can make of
// `packages/x`) is never read, so no host file can be copied and later written back.
import assert from "node:assert/strict";
import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { copyEntry, restoreEntry } from "../../src/runner/run-file-copy.ts";

const base = realpathSync(mkdtempSync(join(tmpdir(), "cw-file-copy-")));
after(() => rmSync(base, { recursive: true, force: true }));

describe("a run-on-host entry's copy", () => {
  it("puts a file, a folder and a link back as they were", () => {
    const ws = join(base, "ws1");
    mkdirSync(join(ws, "sub/.vscode"), { recursive: true });
    writeFileSync(join(ws, "sub/.envrc"), "export A=1\n", { mode: 0o640 });
    writeFileSync(join(ws, "sub/.vscode/tasks.json"), "{}\n");
    symlinkSync("elsewhere", join(ws, "sub/.npmrc"));
    const copies = [".envrc", ".vscode", ".npmrc"].map((name) => copyEntry(join(ws, "sub", name)));
    rmSync(join(ws, "sub"), { recursive: true });
    mkdirSync(join(ws, "sub"));
    [".envrc", ".vscode", ".npmrc"].forEach((name, i) => {
      const copy = copies[i];
      assert.ok(copy, name);
      restoreEntry(join(ws, "sub", name), copy);
    });
    assert.equal(readFileSync(join(ws, "sub/.envrc"), "utf8"), "export A=1\n");
    assert.equal(lstatSync(join(ws, "sub/.envrc")).mode & 0o777, 0o640);
    assert.equal(readFileSync(join(ws, "sub/.vscode/tasks.json"), "utf8"), "{}\n");
    assert.equal(readlinkSync(join(ws, "sub/.npmrc")), "elsewhere");
  });

  it("never reads a file through a folder that is a link, such as a host folder with a .npmrc", () => {
    const ws = join(base, "ws2");
    const host = join(base, "host-home");
    mkdirSync(join(ws, "packages"), { recursive: true });
    mkdirSync(host);
    writeFileSync(join(host, ".npmrc"), "//registry.npmjs.org/:_authToken=npm_secret\n");
    symlinkSync(host, join(ws, "packages/x"));
    assert.equal(copyEntry(join(ws, "packages/x/.npmrc")), null);
    // Nor a file that is itself a link to one: copied as the link, never its bytes.
    symlinkSync(join(host, ".npmrc"), join(ws, "packages/.npmrc"));
    assert.deepEqual(copyEntry(join(ws, "packages/.npmrc")), {
      kind: "link",
      target: join(host, ".npmrc"),
    });
  });
});

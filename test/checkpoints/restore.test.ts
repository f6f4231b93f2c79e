// A hostile workspace against the checkpoint store (src/checkpoints): symlinks to outside, a
// `.git` file pointing at another repository, a nested repository, a FIFO, a huge file and
// crafted paths can neither stall a capture nor make a restore write outside the workspace.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { CheckpointStore } from "../../src/checkpoints/index.ts";
import { applyRestore, planRestore } from "../../src/checkpoints/restore.ts";
import { tempDir } from "../support/session-fixtures.ts";

async function storeFor(workspace: string, maxFileBytes = 1024 * 1024) {
  const home = tempDir("cw-cp-home-");
  const limits = { maxFileBytes, maxCaptureBytes: 10 * maxFileBytes };
  return CheckpointStore.open({ home, sessionId: "s1", cwd: workspace, limits });
}

async function record(store: CheckpointStore) {
  const capture = await store.capture();
  store.markRecorded(capture);
  return capture;
}

async function restore(store: CheckpointStore, from: string, to: string) {
  const none = new Map<string, number>();
  const steps = await planRestore(
    store.place,
    { tree: from, modes: none },
    { tree: to, modes: none },
  );
  return applyRestore(store.place, steps);
}

describe("a hostile workspace and the checkpoint store", () => {
  it("a folder swapped for a symlink to outside: the restore replaces the link, never writes through it", async () => {
    const workspace = tempDir("cw-cp-ws-");
    const outside = tempDir("cw-cp-outside-");
    mkdirSync(join(workspace, "dir"));
    writeFileSync(join(workspace, "dir", "file"), "mine\n");
    const store = await storeFor(workspace);
    const before = await record(store);
    rmSync(join(workspace, "dir"), { recursive: true });
    symlinkSync(outside, join(workspace, "dir"));
    const after = await record(store);
    assert.deepEqual(
      after.files.map((f) => [f.path, f.mode]),
      [
        ["dir", 0o120000],
        ["dir/file", undefined],
      ],
    );
    await restore(store, after.tree, before.tree);
    assert.deepEqual(readdirSync(outside), [], "nothing was written outside");
    assert.equal(lstatSync(join(workspace, "dir")).isDirectory(), true);
    assert.equal(readFileSync(join(workspace, "dir", "file"), "utf8"), "mine\n");
  });

  it("a restore refuses to write below a symlink it did not remove, and refuses crafted paths", async () => {
    const workspace = tempDir("cw-cp-ws-");
    const outside = tempDir("cw-cp-outside-");
    symlinkSync(outside, join(workspace, "link"));
    const store = await storeFor(workspace);
    const blob = execFileSync("git", ["hash-object", "-w", "--stdin"], {
      input: "evil\n",
      env: { PATH: process.env.PATH ?? "", GIT_DIR: store.place.gitDir },
    })
      .toString()
      .trim();
    for (const path of [
      "link/evil",
      "../evil",
      "/tmp/evil",
      "a/../../evil",
      ".git/config",
      "x/.GIT/hooks/pre-commit",
    ]) {
      assert.throws(
        () => applyRestore(store.place, [{ path, hash: blob, mode: 0o100644 }]),
        /refusing to restore|is not a folder/,
        path,
      );
    }
    assert.deepEqual(readdirSync(outside), []);
    assert.equal(existsSync(join(workspace, ".git")), false);
  });

  it("a .git file pointing at another repository and a nested repository are never read or written", async () => {
    const workspace = tempDir("cw-cp-ws-");
    const other = tempDir("cw-cp-other-");
    execFileSync("git", ["init", "-q", other]);
    const config = readFileSync(join(other, ".git", "config"), "utf8");
    writeFileSync(join(workspace, ".git"), `gitdir: ${join(other, ".git")}\n`);
    mkdirSync(join(workspace, "nested"));
    writeFileSync(join(workspace, "nested", ".git"), `gitdir: ${join(other, ".git")}\n`);
    writeFileSync(join(workspace, "nested", "inner.txt"), "inner\n");
    writeFileSync(join(workspace, "top.txt"), "top\n");
    const store = await storeFor(workspace);
    const base = await record(store);
    assert.deepEqual(base.skipped, [{ path: "nested", reason: "nested_repository" }]);
    assert.equal(base.fileCount, 1, "only top.txt: neither .git nor the nested repository");
    writeFileSync(join(workspace, "top.txt"), "changed\n");
    const after = await record(store);
    await restore(store, after.tree, base.tree);
    assert.equal(readFileSync(join(workspace, "top.txt"), "utf8"), "top\n");
    assert.equal(readFileSync(join(other, ".git", "config"), "utf8"), config);
    assert.equal(
      existsSync(join(other, ".git", "index")),
      false,
      "the other repository's index was never written",
    );
  });

  it("a FIFO does not stall a capture, and a huge file is noted, not stored", async () => {
    const workspace = tempDir("cw-cp-ws-");
    execFileSync("mkfifo", [join(workspace, "pipe")]);
    writeFileSync(join(workspace, "huge.bin"), Buffer.alloc(4096, 1));
    writeFileSync(join(workspace, "small.txt"), "small\n");
    const store = await storeFor(workspace, 1024);
    const base = await record(store);
    assert.deepEqual(base.skipped, [{ path: "huge.bin", reason: "too_large", bytes: 4096 }]);
    assert.equal(base.fileCount, 1);
    const again = await store.capture();
    assert.equal(again.changed, false);
    assert.deepEqual(again.skipped, [], "a huge file is noted once, not at every capture");
  });
});

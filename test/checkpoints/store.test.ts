// The checkpoint store's capture (src/checkpoints/store.ts) against git itself: the trees
// codewhale writes without a git process are the trees `git write-tree` makes from the same
// files, through files made, removed, turned into folders and back, symlinks and modes; and a
// capture lists exactly what changed since the last recorded one.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { runGit } from "../../src/checkpoints/git.ts";
import { CheckpointStore } from "../../src/checkpoints/index.ts";
import { tempDir } from "../support/session-fixtures.ts";

/** The tree git itself makes of the workspace (`git add -A` into an index of its own). */
function gitTree(store: CheckpointStore): string {
  const git = (...args: string[]) =>
    execFileSync("git", args, {
      cwd: store.place.workTree,
      env: {
        PATH: process.env.PATH ?? "",
        GIT_DIR: store.place.gitDir,
        GIT_WORK_TREE: store.place.workTree,
        GIT_INDEX_FILE: join(store.dir, "test-index"),
        GIT_CONFIG_NOSYSTEM: "1",
        GIT_CONFIG_GLOBAL: "/dev/null",
      },
    });
  git("add", "-A");
  return git("write-tree").toString().trim();
}

/** Records a capture, then asks git for the tree of the same workspace. */
async function captureBesideGit(store: CheckpointStore) {
  const capture = await store.capture();
  store.markRecorded(capture);
  const again = await store.capture();
  assert.equal(again.changed, false, "a second capture finds nothing new");
  const tree = gitTree(store);
  const files = capture.files.map((file) => `${file.path}:${file.hash === null ? "gone" : "kept"}`);
  return { mine: capture.tree, git: tree, files, count: capture.fileCount };
}

describe("the checkpoint store's capture", () => {
  it("writes the trees git writes, and lists what changed, through files turned folders and back", async () => {
    const ws = tempDir("cw-cp-ws-");
    mkdirSync(join(ws, "a", "b"), { recursive: true });
    writeFileSync(join(ws, "a", "b", "x.txt"), "x");
    writeFileSync(join(ws, "a", "y"), "y");
    writeFileSync(join(ws, "a-b"), "sorted before a/ as git sorts");
    writeFileSync(join(ws, "a.c"), "and after it");
    writeFileSync(join(ws, "run.sh"), "#!/bin/sh\n");
    chmodSync(join(ws, "run.sh"), 0o755);
    symlinkSync("a/y", join(ws, "link"));
    const store = await CheckpointStore.open({
      home: tempDir("cw-cp-home-"),
      sessionId: "s",
      cwd: ws,
    });
    const first = await captureBesideGit(store);
    assert.equal(first.mine, first.git);
    assert.equal(first.count, 6);

    rmSync(join(ws, "a", "b"), { recursive: true });
    writeFileSync(join(ws, "a", "b"), "a folder turned file");
    const toFile = await captureBesideGit(store);
    assert.equal(toFile.mine, toFile.git);
    assert.deepEqual(toFile.files, ["a/b:kept", "a/b/x.txt:gone"]);

    unlinkSync(join(ws, "a", "b"));
    mkdirSync(join(ws, "a", "b"));
    writeFileSync(join(ws, "a", "b", "q"), "a file turned folder");
    chmodSync(join(ws, "a.c"), 0o755);
    rmSync(join(ws, "a-b"));
    const toFolder = await captureBesideGit(store);
    assert.equal(toFolder.mine, toFolder.git);
    assert.deepEqual(toFolder.files, ["a-b:gone", "a.c:kept", "a/b:gone", "a/b/q:kept"]);
    assert.equal(toFolder.count, 5);

    rmSync(join(ws, "a"), { recursive: true });
    const emptied = await captureBesideGit(store);
    assert.equal(emptied.mine, emptied.git);
    assert.deepEqual(emptied.files, ["a/b/q:gone", "a/y:gone"]);
    assert.equal(emptied.count, 3);
  });

  it("a capture of the files a call names writes the tree git writes; a named file the store does not hold as a file means the whole workspace", async () => {
    const ws = tempDir("cw-cp-ws-");
    mkdirSync(join(ws, "a"));
    writeFileSync(join(ws, "a", "x.txt"), "x");
    writeFileSync(join(ws, "b.txt"), "b");
    symlinkSync("b.txt", join(ws, "link"));
    const store = await CheckpointStore.open({
      home: tempDir("cw-cp-home-"),
      sessionId: "s",
      cwd: ws,
    });
    store.markRecorded(await store.capture());
    writeFileSync(join(ws, "a", "x.txt"), "x, edited");
    writeFileSync(join(ws, "b.txt"), "b, changed by someone else");
    const named = await store.capture(undefined, ["a/x.txt"]);
    assert.deepEqual(
      named.files.map((file) => file.path),
      ["a/x.txt"],
      "only the named file is looked at",
    );
    store.markRecorded(named);
    const whole = await store.capture();
    assert.deepEqual(
      whole.files.map((file) => file.path),
      ["b.txt"],
      "the next whole capture finds the rest",
    );
    store.markRecorded(whole);
    assert.equal(whole.tree, gitTree(store));

    writeFileSync(join(ws, "new.txt"), "new");
    writeFileSync(join(ws, "other.txt"), "other");
    const fresh = await store.capture(undefined, ["new.txt"]);
    assert.deepEqual(
      fresh.files.map((file) => file.path),
      ["new.txt", "other.txt"],
      "a file the store does not hold may be ignored: the whole workspace is looked at",
    );
    store.markRecorded(fresh);
    writeFileSync(join(ws, "b.txt"), "b, through the link");
    writeFileSync(join(ws, "other.txt"), "other, again");
    const linked = await store.capture(undefined, ["link"]);
    assert.deepEqual(
      linked.files.map((file) => file.path),
      ["b.txt", "other.txt"],
      "a named symlink may have changed its target: the whole workspace is looked at",
    );
  });

  it("git's index takes the stored files only once more than 256 wait; until then each capture looks at them again, and finds a new file removed", async () => {
    const ws = tempDir("cw-cp-ws-");
    writeFileSync(join(ws, "a.txt"), "a");
    const store = await CheckpointStore.open({
      home: tempDir("cw-cp-home-"),
      sessionId: "s",
      cwd: ws,
    });
    const indexed = async () => splitLines(await runGit(store.place, ["ls-files"]));
    store.markRecorded(await store.capture());
    writeFileSync(join(ws, "new.txt"), "new");
    const added = await store.capture();
    assert.deepEqual(
      added.files.map((file) => file.path),
      ["new.txt"],
    );
    store.markRecorded(added);
    assert.equal((await store.capture()).changed, false, "a file stored is not taken as changed");
    assert.deepEqual(await indexed(), [], "git's index is not updated for two files");
    rmSync(join(ws, "new.txt"));
    const removed = await store.capture();
    assert.deepEqual(
      removed.files.map((file) => `${file.path}:${file.hash}`),
      ["new.txt:null"],
      "a file git's index never held is found removed",
    );
    store.markRecorded(removed);
    mkdirSync(join(ws, "many"));
    for (let i = 0; i < 300; i++) writeFileSync(join(ws, "many", `f${i}`), `${i}`);
    const many = await store.capture();
    store.markRecorded(many);
    assert.equal(many.tree, gitTree(store));
    assert.equal((await store.capture()).changed, false);
    assert.equal(
      (await indexed()).length,
      301,
      "past 256 files, git's index is brought up to date",
    );
  });
});

function splitLines(out: Buffer): string[] {
  return out
    .toString("utf8")
    .split("\n")
    .filter((line) => line !== "");
}

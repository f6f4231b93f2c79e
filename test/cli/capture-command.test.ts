// End to end: the built `codewhale capture` as a child process. Prints what the model would see,
// --json adds the metadata, exits with the command's code (2 for usage errors, 124 for its
// --timeout; also when its stdout's reader leaves early), names a spill file only when it keeps
// it (--keep-spill, past later sweeps), and leaves no spill directory on SIGINT or SIGTERM.
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { fileURLToPath } from "node:url";

const repoRoot = fileURLToPath(new URL("../..", import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), "cw-capture-"));
const env = { PATH: process.env.PATH, TMPDIR: tmp, CODEWHALE_HOME: join(tmp, "home") };

after(() => rmSync(tmp, { recursive: true, force: true }));

function capture(...args: string[]) {
  return spawnSync(process.execPath, ["bin/codewhale.cjs", "capture", ...args], {
    cwd: repoRoot,
    encoding: "utf8",
    env: { ...env, HOME: tmp },
  });
}

const spillDirs = () => readdirSync(tmp).filter((name) => /^codewhale-(spill|kept)-/.test(name));

describe("codewhale capture", () => {
  it("prints exactly the cleaned output and exits with the command's code", () => {
    const run = capture("--", "bash", "-c", "printf '\\033[32mok\\033[0m\\n'; exit 4");
    assert.equal(run.stdout, "ok\n");
    assert.equal(run.status, 4);
  });

  it("reports the metadata with --json and names no spill file it would remove", () => {
    const run = capture("--json", "--max-bytes", "100", "--", "seq", "1", "1000");
    assert.equal(run.status, 0, run.stderr);
    const json = JSON.parse(run.stdout);
    assert.equal(json.truncated, true);
    assert.equal(json.original_lines, 1000);
    assert.equal(json.original_bytes, 3893);
    assert.ok(json.delivered_bytes < 400);
    assert.equal(json.spill_path, null);
    assert.match(json.output, /; full output not saved …\]/);
    assert.deepEqual(json.policy_errors, []);
    assert.equal(
      run.stderr,
      "codewhale: output truncated; --keep-spill saves the full output to a file\n",
    );
    assert.deepEqual(spillDirs(), []);
  });

  it("with --keep-spill names the file it keeps, and a later capture's sweep leaves it", () => {
    const run = capture("--keep-spill", "--max-bytes", "100", "--", "seq", "1", "1000");
    assert.equal(run.status, 0, run.stderr);
    const named = /full output in (\S+) …\]/.exec(run.stdout)?.[1];
    assert.ok(named, run.stdout);
    assert.equal(run.stderr, `codewhale: full output kept in ${named}\n`);
    assert.equal(capture("--", "true").status, 0, "a later run sweeps stale spill directories");
    assert.equal(statSync(named).size, 3893);
    rmSync(join(named, ".."), { recursive: true });
  });

  it("says it timed out, and exits 124", () => {
    const run = capture("--timeout", "200", "--", "sleep", "5");
    assert.equal(run.status, 124);
    assert.equal(
      run.stderr,
      "codewhale: timed out after 200 ms: the command's process tree was killed (exit 124)\n",
    );
  });

  it("reports redactions by kind with --json, and prints only the placeholder", () => {
    const key = `AKIA${"ABCDEFGHIJKLMNOP".split("").reverse().join("")}`;
    const run = capture("--json", "--", "bash", "-c", `echo "export AWS_ACCESS_KEY_ID=${key}"`);
    assert.equal(run.status, 0, run.stderr);
    const json = JSON.parse(run.stdout);
    assert.ok(!run.stdout.includes(key));
    assert.match(json.output, /\[REDACTED:aws_access_key_id\]/);
    assert.deepEqual(json.redactions, { aws_access_key_id: 1 });
    assert.equal(json.truncated, false);
  });

  it("keeps the spill with --keep-spill, and writes none with --no-spill", () => {
    const kept = JSON.parse(
      capture("--json", "--keep-spill", "--max-bytes", "100", "--", "seq", "1", "500").stdout,
    );
    assert.equal(statSync(kept.spill_path).size, 1892);
    rmSync(join(kept.spill_path, ".."), { recursive: true });
    const none = JSON.parse(
      capture("--json", "--no-spill", "--max-bytes", "100", "--", "seq", "1", "500").stdout,
    );
    assert.equal(none.spill_path, null);
    assert.deepEqual(spillDirs(), []);
  });

  it("exits 2 on usage errors, each flag's in the same words", () => {
    const cases: Array<[string[], string]> = [
      [["--max-bytes", "lots"], '--max-bytes must be a positive integer, got "lots"'],
      [["--max-bytes", "0"], '--max-bytes must be a positive integer, got "0"'],
      [["--timeout", "1.5"], '--timeout must be a positive integer, got "1.5"'],
      [["--cols", "5"], '--cols must be 0 (no wrap) or a width from 20 to 1000, got "5"'],
      [["--rows", "x"], '--rows must be a positive integer, got "x"'],
    ];
    for (const [flags, message] of cases) {
      const run = capture(...flags, "--", "true");
      assert.equal(run.status, 2);
      assert.equal(run.stderr, `codewhale: ${message}\n`);
    }
    assert.equal(capture().status, 2);
  });

  it("exits quietly with the command's code when the reader closes stdout early (EPIPE)", async () => {
    const child = spawn(
      process.execPath,
      [
        "bin/codewhale.cjs",
        "capture",
        "--max-bytes",
        "2000000",
        "--",
        "bash",
        "-c",
        "seq 1 400000; exit 3",
      ],
      { cwd: repoRoot, env: { ...env, HOME: tmp }, stdio: ["ignore", "pipe", "pipe"] },
    );
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.stdout.once("data", () => child.stdout.destroy());
    const code = await new Promise((resolve) => child.once("exit", (status) => resolve(status)));
    // No EPIPE error, only the note that the output was truncated.
    assert.equal(
      stderr,
      "codewhale: output truncated; --keep-spill saves the full output to a file\n",
    );
    assert.equal(code, 3);
    assert.deepEqual(spillDirs(), []);
  });

  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    it(`leaves no spill directory when killed by ${signal} mid-command`, async () => {
      const child = spawn(
        process.execPath,
        [
          "bin/codewhale.cjs",
          "capture",
          "--max-bytes",
          "100",
          "--",
          "bash",
          "-c",
          "seq 1 5000; sleep 30",
        ],
        { cwd: repoRoot, env: { ...env, HOME: tmp }, stdio: "ignore" },
      );
      const started = new Promise((resolve) => setTimeout(resolve, 500));
      await started;
      const exited = new Promise((resolve) =>
        child.once("exit", (code, sig) => resolve(sig ?? code)),
      );
      child.kill(signal);
      assert.equal(await exited, signal);
      assert.deepEqual(spillDirs(), []);
    });
  }
});

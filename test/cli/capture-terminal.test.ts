// End to end: `codewhale capture --cols N --rows M` renders a command's output as a terminal of
// that size shows it, and prints what the model gets from the same policy; the sizes are checked
// (a usage error exits 2 with one line), and a project file may set them without trust but
// cannot set an out-of-range size.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { createOutputPipeline } from "../../src/runner/index.ts";
import { randomSecretValue } from "../runner/support/fake-secrets.ts";
import type { Capture } from "../runner/support/terminal-corpus.ts";
import {
  CORPUS_DIR,
  loadCorpus,
  normalise,
  rawBytes,
  reference,
  STRAY_CONTROL,
} from "../runner/support/terminal-corpus.ts";
import { markRepository } from "../support/git-marker.ts";

const repoRoot = fileURLToPath(new URL("../..", import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), "cw-capture-terminal-"));
const env = { PATH: process.env.PATH, TMPDIR: tmp, CODEWHALE_HOME: join(tmp, "home"), HOME: tmp };

after(() => rmSync(tmp, { recursive: true, force: true }));

function capture(args: string[], cwd = repoRoot) {
  return spawnSync(process.execPath, [join(repoRoot, "bin/codewhale.cjs"), "capture", ...args], {
    cwd,
    encoding: "utf8",
    env,
  });
}

function corpusEntry(id: string): Capture {
  const entry = loadCorpus().find((capture) => capture.id === id);
  assert.ok(entry, id);
  return entry;
}

describe("codewhale capture --cols --rows", () => {
  it("shows a live redraw as the terminal of that size showed it", () => {
    const entry = corpusEntry("live-redraw.pty");
    const run = capture([
      "--cols",
      String(entry.cols),
      "--rows",
      String(entry.rows),
      "--",
      "cat",
      `${CORPUS_DIR}${entry.id}.raw`,
    ]);
    assert.equal(run.status, 0, run.stderr);
    assert.equal(normalise(run.stdout), normalise(reference(entry)));
    assert.doesNotMatch(run.stdout, STRAY_CONTROL);
  });

  it("prints what the model gets from the same policy", async () => {
    const entry = corpusEntry("rich-live-table.pty");
    const run = capture([
      "--cols",
      "100",
      "--rows",
      "30",
      "--",
      "cat",
      `${CORPUS_DIR}${entry.id}.raw`,
    ]);
    const pipeline = createOutputPipeline({
      maxBytes: 30_000,
      spillToTemp: false,
      redactSecrets: true,
      terminal: { cols: 100, rows: 30 },
    });
    await pipeline.push(rawBytes(entry));
    assert.equal(run.stdout, (await pipeline.end()).output);
  });

  it("wraps long lines into rows of that width, and never wraps without one", () => {
    const line = "x".repeat(45);
    const wrapped = capture(["--cols", "20", "--", "printf", `${line}\\n`]);
    assert.equal(wrapped.stdout, `${"x".repeat(20)}\n${"x".repeat(20)}\n${"x".repeat(5)}\n`);
    const plain = capture(["--", "printf", `${line}\\n`]);
    assert.equal(plain.stdout, `${line}\n`);
    const noWrap = capture(["--cols", "0", "--", "printf", `${line}\\n`]);
    assert.equal(noWrap.stdout, `${line}\n`);
  });

  it("refuses a size out of range with one line and exit code 2", () => {
    for (const args of [
      ["--cols", "5"],
      ["--rows", "100000"],
      ["--cols", "wide"],
    ]) {
      const run = capture([...args, "--", "true"]);
      assert.equal(run.status, 2, args.join(" "));
      assert.equal(run.stderr.trim().split("\n").length, 1, run.stderr);
      assert.doesNotMatch(run.stderr, /at .*\.(ts|cjs):\d+/);
    }
  });

  it("takes the size from an untrusted project file, but not one out of range, and still redacts", () => {
    const project = join(tmp, "project");
    mkdirSync(join(project, ".codewhale"), { recursive: true });
    markRepository(project);
    const config = join(project, ".codewhale", "config.toml");
    writeFileSync(config, "[output]\nterminal_cols = 20\n");
    const run = capture(["--", "printf", `${"y".repeat(30)}\\n`], project);
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout, `${"y".repeat(20)}\n${"y".repeat(10)}\n`);
    const secret = randomSecretValue(48);
    const leak = capture(["--", "printf", `API_KEY=${secret}\\n`], project);
    assert.match(leak.stdout, /REDACTED/);
    assert.ok(
      !leak.stdout.includes(secret.slice(-8)),
      "a width must not split a secret past the rules",
    );
    writeFileSync(config, "[output]\nterminal_rows = 100000\n");
    const bad = capture(["--", "true"], project);
    assert.notEqual(bad.status, 0);
    assert.match(bad.stderr, /terminal_rows/);
    assert.equal(bad.stderr.trim().split("\n").length, 1, bad.stderr);
  });
});

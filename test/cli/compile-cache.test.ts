// The executable's compile cache (bin/codewhale.cjs): V8's code cache for the bundle, kept in
// $CODEWHALE_HOME/cache. Written once, privately, reused unchanged, replaced when corrupt or
// stale, kept apart for two installs sharing one home, never written when turned off, and never a
// reason for a run to fail or print.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import {
  appendFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import { repoRoot, runCli } from "../support/cli.ts";
import { tempDir } from "../support/session-fixtures.ts";

let home: string;

beforeEach(() => {
  home = tempDir("cw-compile-cache-");
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

function run(env: Record<string, string> = {}) {
  const result = runCli(["config", "show", "--json"], {
    env: { CODEWHALE_HOME: home, CODEWHALE_COMPILE_CACHE: "", ...env },
  });
  assert.equal(result.status, 0, result.stderr);
  assert.equal(result.stderr, "");
  return result;
}

const cacheDir = () => join(home, "cache");
const mkdirCache = () => {
  mkdirSync(cacheDir(), { mode: 0o700, recursive: true });
  return cacheDir();
};
const cacheFiles = () => readdirSync(cacheDir()).filter((name) => name.endsWith(".v8cache"));

describe("compile cache", () => {
  it("is written once, privately, on the first run and reused unchanged after", () => {
    const first = run();
    const [name, ...others] = cacheFiles();
    assert.ok(name?.startsWith("cli-"), "one cache file named after the bundle");
    assert.deepEqual(others, []);
    const path = join(cacheDir(), name as string);
    assert.equal(statSync(cacheDir()).mode & 0o777, 0o700);
    assert.equal(statSync(path).mode & 0o777, 0o600);
    assert.ok(statSync(path).size > 100_000, "holds compiled code");
    const before = statSync(path);
    const second = run();
    assert.equal(second.stdout, first.stdout);
    const after = statSync(path);
    assert.equal(after.mtimeMs, before.mtimeMs, "an accepted cache is not rewritten");
    assert.equal(after.ino, before.ino);
  });

  it("replaces a corrupt cache and runs as usual", () => {
    const first = run();
    const [name] = cacheFiles();
    const path = join(cacheDir(), name as string);
    writeFileSync(path, "not a code cache");
    const second = run();
    assert.equal(second.stdout, first.stdout);
    assert.notEqual(readFileSync(path, "utf8").slice(0, 16), "not a code cache");
    assert.ok(statSync(path).size > 100_000);
  });

  it("removes caches of other builds when it writes a new one", () => {
    mkdirSync(cacheDir(), { mode: 0o700 });
    writeFileSync(join(cacheDir(), "cli-0123456789abcdef.v8cache"), "old layout");
    run();
    const [name] = cacheFiles();
    const where = (name as string).split("-")[1];
    const rebuilt = `cli-${where}-0123456789abcdef.v8cache`;
    writeFileSync(join(cacheDir(), rebuilt), "an older build at this path");
    rmSync(join(cacheDir(), name as string));
    run();
    assert.equal(cacheFiles().length, 1);
    assert.ok(!cacheFiles().includes("cli-0123456789abcdef.v8cache"));
    assert.ok(!cacheFiles().includes(rebuilt));
  });

  it("keeps one cache per install when two installs share the home", () => {
    // A second install of another build: the bin and dist/ copied, one byte added to cli.cjs.
    const other = join(home, "other-install");
    cpSync(join(repoRoot, "bin"), join(other, "bin"), { recursive: true });
    cpSync(join(repoRoot, "dist"), join(other, "dist"), { recursive: true });
    appendFileSync(join(other, "dist", "cli.cjs"), "\n");
    symlinkSync(join(repoRoot, "node_modules"), join(other, "node_modules"));
    const runOther = () => {
      const result = spawnSync(
        process.execPath,
        [join(other, "bin", "codewhale.cjs"), "config", "show", "--json"],
        { env: { PATH: process.env.PATH ?? "", CODEWHALE_HOME: home }, encoding: "utf8" },
      );
      assert.equal(result.status, 0, result.stderr);
    };
    run();
    runOther();
    const both = cacheFiles().filter((name) => name.startsWith("cli-"));
    assert.equal(both.length, 2, `a cache each: ${both}`);
    const stamps = () => both.map((name) => statSync(join(cacheDir(), name)).mtimeMs);
    const before = stamps();
    run();
    runOther();
    assert.deepEqual(stamps(), before, "each reused, neither rewritten");
  });

  it("never creates a missing home for its cache", () => {
    const missing = join(home, "not-there");
    const result = runCli(["config", "show", "--json"], {
      env: { CODEWHALE_HOME: missing, CODEWHALE_COMPILE_CACHE: "" },
    });
    assert.equal(result.status, 0, result.stderr);
    assert.equal(existsSync(missing), false);
  });

  it("gives a chunk loaded on first use a cache of its own, beside the CLI's", () => {
    const initialize = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: 1, clientCapabilities: {} },
    };
    const acp = () => {
      const result = runCli(["acp"], {
        env: { CODEWHALE_HOME: home, CODEWHALE_COMPILE_CACHE: "" },
        input: `${JSON.stringify(initialize)}\n`,
      });
      assert.match(result.stdout, /"protocolVersion":1/, result.stderr);
      return result;
    };
    writeFileSync(join(mkdirCache(), "sdk-acp-0123456789abcdef.v8cache"), "old build");
    writeFileSync(join(cacheDir(), "sdk-anthropic-0123456789abcdef.v8cache"), "another chunk");
    const first = acp();
    const names = cacheFiles().sort();
    assert.equal(names.filter((name) => name.startsWith("cli-")).length, 1);
    const [acpCache, ...older] = names.filter((name) => name.startsWith("sdk-acp-"));
    assert.ok(
      acpCache && older.length === 0,
      `one cache of the ACP chunk, the old one gone: ${names}`,
    );
    assert.ok(
      names.includes("sdk-anthropic-0123456789abcdef.v8cache"),
      "other chunks' caches stay",
    );
    const before = statSync(join(cacheDir(), acpCache)).mtimeMs;
    assert.equal(acp().stdout, first.stdout);
    assert.equal(statSync(join(cacheDir(), acpCache)).mtimeMs, before, "reused, not rewritten");
  });

  it("writes nothing with CODEWHALE_COMPILE_CACHE=0", () => {
    run({ CODEWHALE_COMPILE_CACHE: "0" });
    assert.throws(() => readdirSync(cacheDir()), { code: "ENOENT" });
  });

  it("is kept in CODEWHALE_COMPILE_CACHE's directory when it names one, not in the home", () => {
    const shared = join(tempDir("cw-compile-cache-shared-"), "cache");
    mkdirSync(shared, { mode: 0o700 });
    run({ CODEWHALE_COMPILE_CACHE: shared });
    const [name = ""] = readdirSync(shared);
    assert.ok(name.startsWith("cli-") && name.endsWith(".v8cache"), name);
    assert.throws(() => readdirSync(cacheDir()), { code: "ENOENT" });
    const before = statSync(join(shared, name)).mtimeMs;
    run({ CODEWHALE_COMPILE_CACHE: shared });
    assert.equal(statSync(join(shared, name)).mtimeMs, before, "reused from there");
  });

  it("fails open when the cache cannot be written", () => {
    writeFileSync(cacheDir(), "a file where the cache directory would go");
    const result = run();
    assert.match(result.stdout, /"model"/);
  });
});

// The output policy end to end through real subprocesses in temp dirs: bounding with the
// marker, spill files (where, modes, content, removal), redaction and its opt-out, and failing
// open when the spill cannot be written.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import type { OutputPolicy, SpillScope } from "../../src/runner/index.ts";
import {
  applyOutputPolicy,
  createOutputPipeline,
  createSpillScope,
  runCommand,
} from "../../src/runner/index.ts";
import { randomSecretValue } from "./support/fake-secrets.ts";

const workspace = mkdtempSync(join(tmpdir(), "cw-runner-ws-"));
const scopes: SpillScope[] = [];
after(() => {
  for (const scope of scopes) scope.dispose();
  rmSync(workspace, { recursive: true, force: true });
});

function policy(overrides: Partial<OutputPolicy> = {}): OutputPolicy {
  return { maxBytes: 1000, spillToTemp: true, redactSecrets: true, ...overrides };
}

function scope(tmpDir?: string): SpillScope {
  const created = createSpillScope(`test-${scopes.length}`, tmpDir ? { tmpDir } : {});
  scopes.push(created);
  return created;
}

const seq = (n: number) => `seq 1 ${n}`;

function commandExists(name: string): boolean {
  return spawnSync("sh", ["-c", `command -v ${name}`]).status === 0;
}

describe("output policy through the runner", () => {
  it("passes small output through complete and unmarked", async () => {
    const result = await runCommand(
      { command: "printf 'one\\ntwo\\n'", cwd: workspace },
      policy(),
      {
        spill: scope(),
      },
    );
    assert.equal(result.output, "one\ntwo\n");
    assert.equal(result.truncated, false);
    assert.equal(result.spillPath, null);
    assert.equal(result.originalLines, 2);
    assert.equal(result.exitCode, 0);
  });

  it("caps oversized output at both ends with one marker naming bytes, lines and the spill", async () => {
    const result = await runCommand({ command: seq(5000), cwd: workspace }, policy(), {
      spill: scope(),
    });
    const expected = Array.from({ length: 5000 }, (_, i) => `${i + 1}\n`).join("");
    assert.equal(result.truncated, true);
    assert.ok(result.output.startsWith("1\n2\n3\n"));
    assert.ok(result.output.endsWith("4999\n5000\n"));
    assert.equal(result.output.match(/\[… /g)?.length, 1);
    assert.match(result.output, new RegExp(`original output ${expected.length} bytes, 5000 lines`));
    assert.ok(result.spillPath && result.output.includes(result.spillPath));
    const marker = result.output.split("\n").find((line) => line.startsWith("[…"))!;
    assert.ok(result.deliveredBytes <= 1000 + Buffer.byteLength(marker) + 1);
    assert.equal(readFileSync(result.spillPath, "utf8"), expected);
  });

  it("writes the spill outside the workspace, directory 0700 and file 0600, gone on dispose", async () => {
    const spill = scope();
    const result = await runCommand({ command: seq(3000), cwd: workspace }, policy(), { spill });
    const path = result.spillPath!;
    assert.ok(!path.startsWith(workspace));
    assert.ok(path.startsWith(tmpdir()));
    assert.equal(statSync(spill.dir).mode & 0o777, 0o700);
    assert.equal(statSync(path).mode & 0o777, 0o600);
    spill.dispose();
    assert.throws(() => statSync(spill.dir), { code: "ENOENT" });
  });

  it("writes nothing with spill off, and the marker names no path", async () => {
    const base = mkdtempSync(join(tmpdir(), "cw-nospill-"));
    const result = await runCommand(
      { command: seq(3000), cwd: workspace },
      policy({ spillToTemp: false }),
      { spill: scope(base) },
    );
    assert.equal(result.spillPath, null);
    assert.match(result.output, /full output not saved/);
    assert.throws(() => statSync(join(base, `codewhale-spill-${process.pid}-test-3`)));
    rmSync(base, { recursive: true });
  });

  it("redacts a secret assignment in the output and in the spill file", async () => {
    const value = randomSecretValue();
    const command = `echo "API_KEY=${value}"; seq 1 3000; echo "API_KEY=${value}"`;
    const result = await runCommand({ command, cwd: workspace, env: {} }, policy(), {
      spill: scope(),
    });
    assert.ok(!result.output.includes(value));
    assert.ok(result.output.startsWith("API_KEY=[REDACTED:secret]\n"));
    assert.ok(result.output.endsWith("API_KEY=[REDACTED:secret]\n"));
    assert.deepEqual(result.redactions, { secret: 2 });
    const spilled = readFileSync(result.spillPath!, "utf8");
    assert.ok(!spilled.includes(value));
    assert.equal(spilled.match(/\[REDACTED:secret\]/g)?.length, 2);
  });

  it("redacts a secret assignment straddling two 64 KiB reads, in the output and the spill", async () => {
    const value = randomSecretValue();
    const read = 64 * 1024;
    const text = `${"f".repeat(read - 13)}\nAPI_KEY=${value}\n${"tail line\n".repeat(200)}`;
    const bytes = Buffer.from(text);
    for (const maxBytes of [1_000_000, 1000]) {
      const pipeline = createOutputPipeline(policy({ maxBytes }), { spill: scope() });
      await pipeline.push(bytes.subarray(0, read));
      await pipeline.push(bytes.subarray(read));
      const result = await pipeline.end();
      assert.deepEqual(result.redactions, { secret: 1 });
      assert.ok(!result.output.includes(value));
      const delivered = result.spillPath ? readFileSync(result.spillPath, "utf8") : result.output;
      assert.ok(delivered.includes("\nAPI_KEY=[REDACTED:secret]\ntail line\n"), `${maxBytes}`);
      assert.ok(!delivered.includes(value));
    }
  });

  it("redacts grep's `path:line:` and context `path-line-` lines as it redacts the file", async () => {
    const [password, token] = [randomSecretValue(), randomSecretValue()];
    const dir = mkdtempSync(join(workspace, "grep-"));
    const file = ["a", "b", "c", "d", `password: ${password}`, `TOKEN=${token}`, "e"];
    writeFileSync(join(dir, "s.txt"), `${file.join("\n")}\n`);
    const greps = ["grep -rn -e password -e TOKEN .", "grep -rn -C1 -e password ."];
    if (commandExists("rg")) greps.push("rg -n --no-heading -C1 -e password -e TOKEN .");
    for (const command of greps) {
      const result = await runCommand({ command, cwd: dir }, policy());
      assert.ok(!result.output.includes(password) && !result.output.includes(token), command);
      assert.match(result.output, /s\.txt:5:password: \[REDACTED:password\]\n/, command);
    }
    const context = await runCommand({ command: "grep -rn -C1 -e password .", cwd: dir }, policy());
    assert.match(context.output, /s\.txt-6-TOKEN=\[REDACTED:secret\]\n/);
  });

  it("leaves env's PWD=/path readable while redacting the password beside it", async () => {
    const password = randomSecretValue();
    const env = { PATH: process.env.PATH, DB_PASSWORD: password };
    const result = await runCommand({ command: "env", cwd: workspace, env }, policy());
    assert.ok(result.output.includes(`PWD=${workspace}\n`), result.output);
    assert.ok(result.output.includes("DB_PASSWORD=[REDACTED:password]\n"));
    assert.ok(!result.output.includes(password));
  });

  it("spills a multi-megabyte output whole and in order", async () => {
    const result = await runCommand({ command: seq(400_000), cwd: workspace }, policy(), {
      spill: scope(),
    });
    const expected = Array.from({ length: 400_000 }, (_, i) => `${i + 1}\n`).join("");
    assert.equal(result.originalBytes, expected.length);
    assert.equal(result.originalLines, 400_000);
    assert.equal(readFileSync(result.spillPath!, "utf8"), expected);
  });

  it("leaves secrets in place with redact_secrets off, still bounding and stripping", async () => {
    const value = randomSecretValue();
    const text = `\x1b[32mPASSWORD=${value}\x1b[0m\n${"x".repeat(2000)}\n`;
    const result = await applyOutputPolicy(
      text,
      policy({ redactSecrets: false, spillToTemp: false }),
    );
    assert.ok(result.output.startsWith(`PASSWORD=${value}\n`));
    assert.equal(result.truncated, true);
    assert.deepEqual(result.redactions, {});
  });

  it("fails open when the temp dir cannot be created: bounded, marker, no path, policy error", async () => {
    const file = join(workspace, "not-a-dir");
    writeFileSync(file, "");
    const result = await runCommand(
      { command: seq(3000), cwd: workspace, env: { ...process.env, TMPDIR: join(file, "tmp") } },
      policy(),
      { spill: createSpillScope("failopen", { tmpDir: join(file, "tmp") }) },
    );
    assert.equal(result.truncated, true);
    assert.equal(result.spillPath, null);
    assert.match(result.output, /full output not saved/);
    assert.equal(result.policyErrors.length, 1);
    assert.match(result.policyErrors[0]!, /^spill: .*ENOTDIR/);
  });

  it("hands a sink every processed byte in order, at each read, however much is truncated", async () => {
    const key = `AKIA${randomSecretValue(16)
      .toUpperCase()
      .replace(/[^A-Z0-9]/g, "Q")}`;
    const received: string[] = [];
    const pipeline = createOutputPipeline(policy({ maxBytes: 50 }), {
      sink: async (text) => {
        received.push(text);
      },
    });
    await pipeline.push(Buffer.from("\x1b[31mred\x1b[0m line\n"));
    assert.deepEqual(received, ["red line\n"], "a short read reaches the sink at once");
    await pipeline.push(Buffer.from(`aws=${key}\n${"x".repeat(200)}\nlast`));
    const result = await pipeline.end();
    const logged = received.join("");
    assert.equal(result.truncated, true);
    assert.ok(!logged.includes(key) && logged.includes("[REDACTED:"), logged);
    assert.ok(
      logged.startsWith("red line\naws=[REDACTED:") && logged.endsWith(`${"x".repeat(200)}\nlast`),
    );
  });
});

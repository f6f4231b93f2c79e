// The live tail of a running command (PipelineOptions.tail, what the bash tool reports through
// ToolContext.progress): lines show while it runs, reports are throttled and bounded, and a
// secret a hostile command prints (whole, or split across writes with a pause between) never
// reaches a report unredacted, not even in part.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import type { OutputPolicy } from "../../src/runner/index.ts";
import { runCommand } from "../../src/runner/index.ts";
import { TAIL_BYTES } from "../../src/runner/output-tail.ts";
import { fakeProviderTokens } from "./support/fake-secrets.ts";

const workspace = mkdtempSync(join(tmpdir(), "cw-tail-ws-"));
after(() => rmSync(workspace, { recursive: true, force: true }));

const policy: OutputPolicy = { maxBytes: 50_000, spillToTemp: false, redactSecrets: true };

interface Report {
  at: number;
  text: string;
}

async function run(command: string, extra: Partial<OutputPolicy> = {}) {
  const reports: Report[] = [];
  const result = await runCommand(
    { command, cwd: workspace },
    { ...policy, ...extra },
    { tail: (text) => reports.push({ at: Date.now(), text }) },
  );
  return { reports, result, ended: Date.now() };
}

describe("the live output tail", () => {
  it("shows a running command's lines before it ends, the last report its last lines", async () => {
    const { reports, ended } = await run("echo first; sleep 0.4; echo second; sleep 0.4");
    const early = reports.find((r) => r.text.includes("first"));
    assert.ok(early, "a report shows the first line");
    assert.ok(ended - early.at >= 300, "while the command still ran");
    assert.match(reports.at(-1)?.text ?? "", /first\nsecond\n$/);
  });

  it("reports at most about ten times a second and at most a few KiB, cut at a line", async () => {
    const { reports } = await run(
      'for i in $(seq 1 40); do seq 1 300 | sed "s/^/row $i /"; sleep 0.02; done',
    );
    assert.ok(reports.length >= 3, `several reports: ${reports.length}`);
    for (let i = 1; i < reports.length; i++) {
      const gap = reports[i]!.at - reports[i - 1]!.at;
      assert.ok(gap >= 90, `reports ${gap} ms apart`);
    }
    for (const { text } of reports) {
      assert.ok(Buffer.byteLength(text) <= TAIL_BYTES, `${Buffer.byteLength(text)} bytes`);
      assert.match(text, /^row \d+ \d+\n/, "starts at a line start");
    }
  });

  it("never reports a secret a hostile repository's file prints, whole or split by a pause", async () => {
    const [[kind, secret]] = fakeProviderTokens() as [[string, string]];
    const half = secret.length >> 1;
    writeFileSync(join(workspace, ".env"), `AWS_KEY=${secret}\n`);
    const script = [
      "cat .env",
      `printf 'key: ${secret.slice(0, half)}'`,
      "sleep 0.35",
      `printf '${secret.slice(half)}\\n'`,
      "sleep 0.35",
      "echo done",
    ].join("; ");
    const { reports, result } = await run(script);
    assert.ok(reports.length >= 2, "reports while it ran");
    for (const { text } of reports) {
      assert.ok(!text.includes(secret), `the secret in a report: ${text}`);
      assert.ok(!text.includes(secret.slice(half)), `its second half in a report: ${text}`);
      assert.ok(!text.includes(secret.slice(4, half)), `its first half in a report: ${text}`);
    }
    assert.ok(reports.some((r) => r.text.includes(`[REDACTED:${kind}]`)));
    assert.equal(result.output.includes(secret), false);
    const without = await runCommand({ command: script, cwd: workspace }, policy);
    assert.equal(result.output, without.output, "the tail changes nothing the model is shown");
    assert.deepEqual(result.redactions, without.redactions, "nor the redaction counts");
  });

  it("with redact_secrets off, shows what the model is shown", async () => {
    const { reports, result } = await run("echo plain-text-line", { redactSecrets: false });
    assert.equal(reports.at(-1)?.text, "plain-text-line\n");
    assert.equal(result.output, "plain-text-line\n");
  });
});

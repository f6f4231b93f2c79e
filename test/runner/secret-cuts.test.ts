// Secrets where the output policy cuts: keys of several shapes placed across the head and the
// tail boundary at every offset, across the parts a line over 64 KiB arrives in, and the spill
// file, which must hold the same stripped and redacted text the model could page through.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { fromByteString, toByteString } from "../../src/runner/byte-text.ts";
import type { OutputPolicy, SpillScope } from "../../src/runner/index.ts";
import {
  applyOutputPolicy,
  createOutputPipeline,
  createSpillScope,
  runCommand,
} from "../../src/runner/index.ts";
import { Redactor } from "../../src/runner/redactor.ts";
import { fakeProviderTokens, randomFrom, randomSecretValue } from "./support/fake-secrets.ts";

const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const tmp = mkdtempSync(join(tmpdir(), "cw-secret-cuts-"));
const scopes: SpillScope[] = [];
after(() => {
  for (const scope of scopes) scope.dispose();
  rmSync(tmp, { recursive: true, force: true });
});

function spillScope(): SpillScope {
  const scope = createSpillScope(`cuts-${scopes.length}`, { tmpDir: tmp });
  scopes.push(scope);
  return scope;
}

/** A secret in its setting: `before` is what must stay readable, `secret` what must not. */
interface Case {
  name: string;
  /** Filler char before the case: a space-free glue for shapes that stick to text before. */
  glue: string;
  before: string;
  secret: string;
}

function cases(): Case[] {
  const providers = fakeProviderTokens().map(([kind, secret]) => ({
    name: kind,
    glue: ".",
    before: " ",
    secret,
  }));
  return [
    ...providers,
    {
      name: "anthropic glued to text",
      glue: "q",
      before: "",
      secret: `sk-ant-api03-${randomFrom(ALNUM, 32)}`,
    },
    {
      name: "github_pat glued to text",
      glue: "q",
      before: "",
      secret: `github_pat_${randomFrom(ALNUM, 22)}_${randomFrom(ALNUM, 40)}`,
    },
    { name: "password", glue: ".", before: " password: ", secret: randomSecretValue(24) },
    { name: "env token", glue: ".", before: " API_TOKEN=", secret: randomSecretValue(32) },
    {
      name: "bearer header",
      glue: ".",
      before: " Authorization: Bearer ",
      secret: randomSecretValue(40),
    },
  ];
}

const MARKER = /\n?\[… \d+ lines \(\d+ bytes\) omitted;[^\n]*…\]\n/;

/** The head before the truncation marker and the tail after it. */
function headAndTail(output: string): [string, string] {
  const marker = MARKER.exec(output);
  assert.ok(marker, "the output was truncated");
  return [output.slice(0, marker.index), output.slice(marker.index + marker[0].length)];
}

/** A placeholder cut short at the end of the head (`[REDACTED:gi` is not `github_pat_`). */
const CUT_PLACEHOLDER = /\[(?:R(?:E(?:D(?:A(?:C(?:T(?:E(?:D(?::[a-z_]*)?)?)?)?)?)?)?)?)?$/;

/** The end of a placeholder cut at the tail's start (`acted:password]`). */
const TAIL_PLACEHOLDER = /^[A-Za-z_:]*\]/;

/** No 8-byte window of the secret anywhere, no prefix of it ending the head, no suffix starting the tail. */
function assertNoPart(output: string, secret: string, whole: string, tail: string, label: string) {
  for (let at = 0; at + 8 <= secret.length; at++) {
    assert.ok(!output.includes(secret.slice(at, at + 8)), `${label}: part of the secret shown`);
  }
  const head = whole.replace(CUT_PLACEHOLDER, "");
  // The tail may start inside a placeholder (`…word]`); its letters are not the secret's.
  const start = tail.replace(TAIL_PLACEHOLDER, "");
  for (let k = 2; k < secret.length; k++) {
    assert.ok(!head.endsWith(secret.slice(0, k)), `${label}: head ends with ${k} secret bytes`);
    assert.ok(!start.startsWith(secret.slice(-k)), `${label}: tail starts with ${k} secret bytes`);
  }
}

const BUDGET = 2000;
const HALF = BUDGET / 2;
const noSpill: OutputPolicy = { maxBytes: BUDGET, spillToTemp: false, redactSecrets: true };

describe("secrets at the head and tail cuts", () => {
  it("never leaves part of a key at the end of the head, at every offset", async () => {
    for (const c of cases()) {
      for (let inHead = 1; inHead < c.secret.length; inHead++) {
        // One long line, so the head is cut at exactly HALF bytes, `inHead` bytes into the secret.
        const start = HALF - inHead - c.before.length;
        const text = `${c.glue.repeat(start)}${c.before}${c.secret} ${"-".repeat(5000)}\n`;
        const result = await applyOutputPolicy(text, noSpill);
        const [head, tail] = headAndTail(result.output);
        assertNoPart(result.output, c.secret, head, tail, `${c.name} at ${inHead}`);
      }
    }
  });

  it("never leaves part of a key at the start of the tail, at every offset", async () => {
    for (const c of cases()) {
      for (let inTail = 1; inTail < c.secret.length; inTail++) {
        // The tail is the last HALF bytes: it starts `inTail` bytes before the secret's end.
        const rest = "-".repeat(HALF - inTail - 2);
        const text = `${"-".repeat(5000)} ${c.glue.repeat(50)}${c.before}${c.secret} ${rest}\n`;
        const result = await applyOutputPolicy(text, noSpill);
        const [head, tail] = headAndTail(result.output);
        assertNoPart(result.output, c.secret, head, tail, `${c.name} at ${inTail}`);
      }
    }
  });

  it("redacts the reviewed repro: a key glued to 14970 bytes, cut inside by the head", async () => {
    const key = `sk-ant-api03-${randomFrom(ALNUM, 32)}`;
    const command =
      "head -c 14970 /dev/zero|tr '\\0' x; printf '%s\\n' \"$K\"; head -c 100000 /dev/zero|tr '\\0' y";
    const spill = spillScope();
    const result = await runCommand(
      { command, cwd: tmp, env: { ...process.env, K: key } },
      { maxBytes: 30_000, spillToTemp: true, redactSecrets: true },
      { spill },
    );
    const [head, tail] = headAndTail(result.output);
    assertNoPart(result.output, key, head, tail, "repro");
    assert.deepEqual(result.redactions, { anthropic_api_key: 1 });
    const spilled = readFileSync(result.spillPath!, "utf8");
    assert.ok(spilled.includes(`${"x".repeat(100)}[REDACTED:anthropic_api_key]\n`));
    assert.ok(!spilled.includes(key.slice(13, 21)));
  });
});

/** Feeds `text` to a pipeline in parts of the given sizes; returns the result and the spill. */
async function chunked(text: string, sizes: () => number, maxBytes: number) {
  const pipeline = createOutputPipeline(
    { maxBytes, spillToTemp: true, redactSecrets: true },
    { spill: spillScope() },
  );
  const bytes = Buffer.from(text);
  for (let at = 0; at < bytes.length; ) {
    const end = Math.min(bytes.length, at + sizes());
    await pipeline.push(bytes.subarray(at, end));
    at = end;
  }
  const result = await pipeline.end();
  return { result, spilled: result.spillPath ? readFileSync(result.spillPath, "utf8") : "" };
}

/** What one redaction call over the whole text gives: the oracle for streamed redaction. */
function redactedWhole(text: string): string {
  return fromByteString(new Redactor(null).redactOwn(toByteString(text)));
}

describe("secrets in a line longer than 64 KiB, which arrives in parts", () => {
  const filler = (bytes: number) =>
    "lorem ipsum dolor ".repeat(Math.ceil(bytes / 18)).slice(0, bytes);

  it("redacts a key straddling the part boundary, in the output and the spill", async () => {
    const part = 64 * 1024 + 1;
    for (const c of cases()) {
      for (const inFirst of [1, 5, Math.floor(c.secret.length / 2), c.secret.length - 1]) {
        const start = part - inFirst - c.before.length;
        // Past the next part boundary too, so the line arrives in three parts.
        const text = `${filler(start - 1)}${c.glue}${c.before}${c.secret} ${filler(part + 1000)}\n`;
        const { result, spilled } = await chunked(text, () => part, 30_000);
        assert.equal(spilled, redactedWhole(text), `${c.name} at ${inFirst}`);
        assert.ok(!spilled.includes(c.secret.slice(-8)), `${c.name} at ${inFirst}`);
        const [head, tail] = headAndTail(result.output);
        assertNoPart(result.output, c.secret, head, tail, `${c.name} at ${inFirst}`);
      }
    }
  });

  it("streams a multi-megabyte line in random parts exactly as one redaction of it", async () => {
    const all = cases();
    for (let run = 0; run < 6; run++) {
      const pieces: string[] = [];
      const placed: Case[] = [];
      for (let i = 0; i < 30; i++) {
        const c = all[Math.floor(Math.random() * all.length)]!;
        placed.push(c);
        pieces.push(filler(1000 + Math.floor(Math.random() * 90_000)), c.glue, c.before, c.secret);
        pieces.push(" ");
      }
      const text = `${pieces.join("")}\n`;
      const sizes = () => 1 + Math.floor(Math.random() * 200_000);
      const { result, spilled } = await chunked(text, sizes, 30_000);
      assert.equal(spilled, redactedWhole(text), `run ${run}`);
      for (const c of placed) assert.ok(!spilled.includes(c.secret.slice(-10)), c.name);
      assert.equal(
        Object.values(result.redactions).reduce((a, b) => a + b, 0),
        placed.length,
      );
    }
  });
});

describe("the spill file", () => {
  it("holds the stripped, redacted text, never a secret, in a 0600 file", async () => {
    const password = randomSecretValue();
    const key = `sk-ant-api03-${randomFrom(ALNUM, 40)}`;
    const lines = [
      `\x1b[31mDB_PASSWORD=${password}\x1b[0m`,
      `s.txt:5:password: ${password}`,
      `progress 10%\rprogress 100% ${key}`,
      ...Array.from({ length: 3000 }, (_, i) => `line ${i}`),
      `xx${key}`,
    ];
    const spill = spillScope();
    const result = await applyOutputPolicy(
      `${lines.join("\n")}\n`,
      { maxBytes: 1000, spillToTemp: true, redactSecrets: true },
      { spill },
    );
    const spilled = readFileSync(result.spillPath!, "utf8");
    const expected = [
      "DB_PASSWORD=[REDACTED:password]",
      "s.txt:5:password: [REDACTED:password]",
      "progress 100% [REDACTED:anthropic_api_key]",
      ...lines.slice(3, -1),
      "xx[REDACTED:anthropic_api_key]",
    ];
    assert.equal(spilled, `${expected.join("\n")}\n`);
    assert.ok(!spilled.includes(password) && !spilled.includes(key.slice(13)));
    assert.equal(statSync(result.spillPath!).mode & 0o777, 0o600);
  });
});

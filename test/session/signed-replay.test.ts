// Resume's signed replay passes over chunk lines unparsed only where a verified checkpoint
// covers them: every forged or malformed line (signed range with the chain recomputed, or the
// unsigned tail) is refused with exactly the error the full read gives (readSession, then the
// receipt, as resume does), and a log without checkpoints or key is read in full.
import assert from "node:assert/strict";
import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { SessionCorruptError } from "../../src/errors.ts";
import { createCheckpointSigner } from "../../src/session/checkpoint.ts";
import { deriveMessages } from "../../src/session/derive.ts";
import type { EventType } from "../../src/session/events.ts";
import { bodyOf, chainHash, formatLine, hMemberAt, hOf } from "../../src/session/hash-chain.ts";
import { readSession } from "../../src/session/reader.ts";
import { checkReceipt, type ReceiptTrust } from "../../src/session/receipt.ts";
import { deriveFromLog } from "../../src/session/replay.ts";
import { readSigned } from "../../src/session/signed-replay.ts";
import { loadOrCreateSigningKey } from "../../src/session/signing-key.ts";
import { SessionWriter } from "../../src/session/writer.ts";
import { sampleTurn, startPayload, tempDir } from "../support/session-fixtures.ts";

const CHUNKS_PER_TURN = 30;

/** A log of three turns of streamed chunks; with `signed`, a checkpoint after each turn end. */
function writeLog(signed: boolean): { path: string; trust: ReceiptTrust } {
  const home = tempDir("cw-key-home-");
  const key = loadOrCreateSigningKey(home);
  const indexPath = join(home, "checkpoints.jsonl");
  const signer = createCheckpointSigner(key, indexPath);
  const writer = SessionWriter.create(tempDir(), startPayload, signed ? { signer } : {});
  for (let turn = 0; turn < 3; turn++) {
    for (const event of sampleTurn(turn)) writer.append(event);
    for (let i = 0; i < CHUNKS_PER_TURN; i++) {
      const delta = `part ${i} of turn ${turn} `;
      writer.append({ type: "assistant/chunk", turn, step: 1, block: 0, kind: "text", delta });
    }
    writer.append({ type: "turn/end", turn, reason: "completed" });
  }
  writer.close();
  return { path: writer.path, trust: { key, keyPath: key.source, indexPath } };
}

function lines(path: string): string[] {
  return readFileSync(path, "utf8").split("\n").slice(0, -1);
}

/**
 * What a forger without the key does: edits raw lines, then recomputes every `h` and makes
 * each checkpoint name the new hash of the line before it (its signature cannot be redone).
 */
function forgeLines(path: string, edit: (lines: string[]) => void): void {
  const all = lines(path);
  edit(all);
  let previous = "";
  const out = all.map((line) => {
    let body = bodyOf(line, hMemberAt(line));
    if (body.includes('"type":"session/checkpoint"')) {
      body = body.replace(/"signed_h":"[0-9a-f]{64}"/, `"signed_h":"${previous}"`);
    }
    previous = chainHash(previous, body);
    return formatLine(body, previous);
  });
  writeFileSync(path, `${out.join("\n")}\n`);
}

/** Appends a line whose body is `body` (canonical or not) chained after the log's last line. */
function appendChained(path: string, body: string): void {
  const last = lines(path).at(-1) as string;
  const h = chainHash(hOf(last, hMemberAt(last)), body);
  appendFileSync(path, `${formatLine(body, h)}\n`);
}

/** The index (0-based) of the chunk line `n` lines after the first one of turn `turn`. */
function chunkLine(path: string, turn: number, n: number): number {
  const first = lines(path).findIndex((line) => line.includes(`"delta":"part 0 of turn ${turn} "`));
  return first + n;
}

/** Today's outcome for resume: the full read, then the receipt. */
function fullRead(path: string, trust: ReceiptTrust): SessionCorruptError | null {
  try {
    checkReceipt(path, readSession(path).events, trust);
    return null;
  } catch (error) {
    if (error instanceof SessionCorruptError) return error;
    throw error;
  }
}

/** Signed replay must refuse the log with the full read's error, and that error is `reason`. */
async function refusedAsToday(path: string, trust: ReceiptTrust, line: number, reason: RegExp) {
  const expected = fullRead(path, trust);
  assert.ok(expected, "the full read refuses the log");
  assert.equal(expected.line, line);
  assert.match(expected.reason, reason);
  await assert.rejects(deriveFromLog(path, { receipt: trust }), (error: unknown) => {
    assert.ok(error instanceof SessionCorruptError);
    assert.deepEqual(
      { file: error.file, line: error.line, reason: error.reason },
      { file: expected.file, line: expected.line, reason: expected.reason },
    );
    return true;
  });
}

describe("signed replay", () => {
  it("takes the signed chunk lines unparsed and derives what the full read derives", async () => {
    const { path, trust } = writeLog(true);
    const full = readSession(path);
    const derived = await deriveFromLog(path, { receipt: trust });
    const chunks = full.events.filter((e) => e.type === "assistant/chunk").length;
    // The first chunk of each sample turn and all streamed ones, all before the close.
    assert.equal(derived.trustedLines, chunks);
    assert.equal(chunks, 3 * (CHUNKS_PER_TURN + 2));
    assert.deepEqual(derived.messages, deriveMessages(full.events));
    assert.deepEqual(derived.summary, full.summary);
    assert.deepEqual(derived.receipt, checkReceipt(path, full.events, trust));
  });

  it("refuses a chunk whose delta was edited and hashes recomputed, as the full read does", async () => {
    const { path, trust } = writeLog(true);
    const at = chunkLine(path, 1, 5);
    forgeLines(path, (all) => {
      all[at] = (all[at] as string).replace("part 5 of turn 1", "part 5 of turn X");
    });
    // Resume checks the last signature, which covers every line before it.
    const last = lines(path).findLastIndex((line) => line.includes('"type":"session/checkpoint"'));
    await refusedAsToday(path, trust, last + 1, /signature does not verify/);
  });

  it("refuses a chunk edited without recomputing its hash: the chain breaks at it", async () => {
    const { path, trust } = writeLog(true);
    const at = chunkLine(path, 1, 9);
    const all = lines(path);
    all[at] = (all[at] as string).replace("part 9 of turn 1", "part 9 of turn Y");
    writeFileSync(path, `${all.join("\n")}\n`);
    await refusedAsToday(path, trust, at + 1, /^hash chain broken$/);
  });

  it("refuses a signed-range line that ends like a chunk but is not JSON, or has a wrong seq or kind", async () => {
    const damage: Array<[(line: string) => string, RegExp]> = [
      [(line) => line.replace('"delta":"', '"delta":'), /^invalid JSON$/],
      [(line) => line.replace(/"seq":\d+/, '"seq":999'), /^seq gap: expected \d+, found 999$/],
      [
        (line) => line.replace('"kind":"text"', '"kind":"bogus"'),
        /^invalid assistant\/chunk: kind/,
      ],
    ];
    for (const [edit, reason] of damage) {
      const { path, trust } = writeLog(true);
      const at = chunkLine(path, 0, 7);
      forgeLines(path, (all) => {
        all[at] = edit(all[at] as string);
      });
      assert.ok((lines(path)[at] as string).includes(',"type":"assistant/chunk","v":1,"h":"'));
      await refusedAsToday(path, trust, at + 1, reason);
    }
  });

  it("checks the unsigned tail in full: a bad chunk after the last checkpoint is refused", async () => {
    const chunk = (extra: string) =>
      `{"block":0,"delta":"late",${extra}"seq":SEQ,"step":1,"ts":"2026-12-01T00:00:00.000Z","turn":3,"type":"assistant/chunk","v":1}`;
    const cases: Array<[string, RegExp]> = [
      [chunk('"kind":"bogus",'), /^invalid assistant\/chunk: kind/],
      [chunk('"kind":"text",').replace('"delta":"late",', '"delta":late,'), /^invalid JSON$/],
      [chunk('"kind":"text",').replace("SEQ", "7777"), /^seq gap: expected \d+, found 7777$/],
    ];
    for (const [body, reason] of cases) {
      const { path, trust } = writeLog(true);
      const seq = lines(path).length;
      appendChained(path, chunk('"kind":"text",').replace("SEQ", String(seq)));
      appendChained(path, body.replace("SEQ", String(seq + 1)));
      await refusedAsToday(path, trust, seq + 2, reason);
    }
    // A good unsigned tail is accepted, and is not counted as vouched for.
    const { path, trust } = writeLog(true);
    const before = (await deriveFromLog(path, { receipt: trust })).trustedLines;
    appendChained(path, chunk('"kind":"text",').replace("SEQ", String(lines(path).length)));
    const after = await deriveFromLog(path, { receipt: trust });
    assert.equal(after.trustedLines, before);
    assert.equal(after.receipt?.unsignedLines, 1);
  });

  it("keeps every event but the signed chunks for resume, and its writer trusts that read only while the log is unchanged", async () => {
    const { path, trust } = writeLog(true);
    const read = await readSigned(path, trust);
    assert.ok(read);
    const full = readSession(path).events;
    assert.deepEqual(
      read.events,
      full.filter((e) => e.type !== "assistant/chunk"),
    );
    const lastType = read.events.at(-1)?.type as EventType;
    const verified = { summary: read.summary, lastType };
    const same = SessionWriter.resume(path, { verified });
    assert.equal(same.summary, read.summary, "not read again");
    same.writer.append({ type: "todo/update", todos: [] });
    same.writer.close();
    // Appended since the verified read: the writer reads the log again and continues after it.
    const again = SessionWriter.resume(path, { verified });
    assert.notEqual(again.summary, read.summary);
    assert.equal(again.summary.lastSeq, readSession(path).summary.lastSeq);
    again.writer.close();
  });

  it("reads a log without checkpoints, or without a key, in full", async () => {
    const { path, trust } = writeLog(false);
    const derived = await deriveFromLog(path, { receipt: trust });
    assert.equal(derived.trustedLines, 0);
    assert.equal(derived.receipt?.signed, null);
    const at = chunkLine(path, 2, 3);
    forgeLines(path, (all) => {
      all[at] = (all[at] as string).replace('"kind":"text"', '"kind":"bogus"');
    });
    await refusedAsToday(path, trust, at + 1, /^invalid assistant\/chunk: kind/);
    const signed = writeLog(true);
    const keyless = { ...signed.trust, key: null };
    const at2 = chunkLine(signed.path, 0, 2);
    forgeLines(signed.path, (all) => {
      all[at2] = (all[at2] as string).replace('"kind":"text"', '"kind":"bogus"');
    });
    await refusedAsToday(signed.path, keyless, at2 + 1, /^invalid assistant\/chunk: kind/);
  });
});

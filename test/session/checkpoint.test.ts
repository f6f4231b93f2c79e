// The writer with a signer: a `session/checkpoint` right after every `turn/end` and at close
// (unless the log already ends in one), published in append order, recorded in the index,
// and checked by the receipt verifier, which names a cut or a bad signature.
import assert from "node:assert/strict";
import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { createCheckpointSigner } from "../../src/session/checkpoint.ts";
import type { SessionEvent } from "../../src/session/events.ts";
import { readSession } from "../../src/session/reader.ts";
import { checkReceipt, type ReceiptTrust, ReceiptVerifier } from "../../src/session/receipt.ts";
import { loadOrCreateSigningKey } from "../../src/session/signing-key.ts";
import { SessionWriter } from "../../src/session/writer.ts";
import { sampleTurn, startPayload, tempDir } from "../support/session-fixtures.ts";

function setup() {
  const home = tempDir("cw-key-home-");
  const key = loadOrCreateSigningKey(home);
  const indexPath = join(home, "checkpoints.jsonl");
  const trust: ReceiptTrust = { key, keyPath: key.source, indexPath, everySignature: true };
  return { home, key, indexPath, trust, signer: createCheckpointSigner(key, indexPath) };
}

describe("session checkpoints", () => {
  it("follow every turn end and the close, in publish order, each recorded in the index", () => {
    const { signer, indexPath, trust } = setup();
    const published: SessionEvent[] = [];
    const writer = SessionWriter.create(tempDir(), startPayload, {
      signer,
      publish: (event) => {
        published.push(event);
        // A listener reacting to the turn end appends after the checkpoint, not before it.
        if (event.type === "turn/end") writer.append({ type: "todo/update", todos: [] });
      },
    });
    for (const event of sampleTurn()) writer.append(event);
    writer.append({ type: "turn/end", turn: 0, reason: "completed" });
    writer.close();
    const { events } = readSession(writer.path);
    const types = events.slice(-4).map((e) => e.type);
    assert.deepEqual(types, [
      "turn/end",
      "session/checkpoint",
      "todo/update",
      "session/checkpoint",
    ]);
    assert.deepEqual(
      published.map((e) => e.seq),
      events.map((e) => e.seq),
    );
    const index = readFileSync(indexPath, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    assert.deepEqual(
      index.map((r) => r.seq),
      events.filter((e) => e.type === "session/checkpoint").map((e) => e.seq - 1),
    );
    const receipt = checkReceipt(writer.path, events, trust);
    assert.equal(receipt.signed?.seq, events.length - 2);
    assert.equal(receipt.unsignedLines, 0);
    assert.deepEqual(receipt.index, { state: "agrees", seq: events.length - 2, path: indexPath });
  });

  it("a log that ends in a checkpoint gets no second one at close, after a resume too", () => {
    const { signer } = setup();
    const writer = SessionWriter.create(tempDir(), startPayload, { signer });
    writer.append({ type: "turn/end", turn: 0, reason: "completed" });
    writer.close();
    SessionWriter.resume(writer.path, { signer }).writer.close();
    const types = readSession(writer.path).events.map((e) => e.type);
    assert.deepEqual(types, ["session/start", "turn/end", "session/checkpoint"]);
  });

  it("names a signature that does not verify, and a log cut before the index's checkpoint", () => {
    const { signer, trust } = setup();
    const writer = SessionWriter.create(tempDir(), startPayload, { signer });
    writer.append({ type: "turn/end", turn: 0, reason: "completed" });
    writer.close();
    const { events } = readSession(writer.path);
    const forged = events.map((e) =>
      e.type === "session/checkpoint" ? { ...e, sig: Buffer.alloc(64).toString("base64") } : e,
    );
    assert.throws(() => checkReceipt(writer.path, forged, trust), {
      message: `${writer.path}:3: checkpoint signature does not verify with key ${trust.key?.fingerprint}: the log was changed after it was signed`,
    });
    assert.throws(() => checkReceipt(writer.path, events.slice(0, 2), trust), {
      message: `${writer.path}:3: ends before its last recorded checkpoint (of seq 1, in ${trust.indexPath})`,
    });
  });

  it("a log read while its writer records a later checkpoint is not taken for a cut one", () => {
    const { signer, trust } = setup();
    const writer = SessionWriter.create(tempDir(), startPayload, { signer });
    writer.append({ type: "turn/end", turn: 0, reason: "completed" });
    // A reader (resume, verify) makes its verifier, then reads the log; meanwhile the writer
    // ends another turn: synced, then recorded in the index.
    const verifier = new ReceiptVerifier(writer.path, trust);
    const { events } = readSession(writer.path);
    writer.append({ type: "turn/end", turn: 1, reason: "completed" });
    for (const event of events) verifier.push(event);
    assert.deepEqual(verifier.finish().index, { state: "agrees", seq: 1, path: trust.indexPath });
    // Read the other way round, the index is newer than the log read: that is a cut log.
    assert.throws(
      () => checkReceipt(writer.path, events, trust),
      /ends before its last recorded checkpoint/,
    );
    writer.close();
  });

  it("refuses a log stored under another session's file name", () => {
    const { signer, trust } = setup();
    const writer = SessionWriter.create(tempDir(), startPayload, { signer });
    writer.append({ type: "user/message", text: "hello" });
    writer.close();
    const other = SessionWriter.create(tempDir(), startPayload);
    other.append({ type: "user/message", text: "hello" });
    other.close();
    copyFileSync(writer.path, other.path);
    const { events } = readSession(other.path);
    assert.throws(() => checkReceipt(other.path, events, trust), {
      message: `${other.path}:1: holds session ${writer.id}, not ${other.id} its file is named for`,
    });
  });

  it("refuses a key file that is not a key", () => {
    const { key } = setup();
    writeFileSync(key.source, "not a key\n", { mode: 0o600 });
    assert.throws(() => loadOrCreateSigningKey(join(key.source, "..", "..")), {
      message: `${key.source}: not a PEM private key`,
    });
  });
});

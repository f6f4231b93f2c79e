// End to end: `exec --resume` of a large signed log (8 MB and more) passes over the chunk
// lines its last verified checkpoint covers (session/signed-replay.ts). A chunk line forged in
// the signed range (hashes recomputed) or malformed in the unsigned tail is refused with the
// full read's line; a malformed chunk line that the user's own key signed is taken on the
// signature's word (the full read refuses it), and the resumed request carries the history.
import assert from "node:assert/strict";
import { sign } from "node:crypto";
import { appendFileSync, copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { describe, it } from "node:test";
import { SessionCorruptError } from "../../src/errors.ts";
import { checkpointMessage, createCheckpointSigner } from "../../src/session/checkpoint.ts";
import { checkpointIndexPath } from "../../src/session/checkpoint-index.ts";
import { bodyOf, chainHash, formatLine, hMemberAt, hOf } from "../../src/session/hash-chain.ts";
import { readSession } from "../../src/session/reader.ts";
import { checkReceipt } from "../../src/session/receipt.ts";
import { loadOrCreateSigningKey, type SigningKey } from "../../src/session/signing-key.ts";
import { SessionWriter } from "../../src/session/writer.ts";
import { type ExecEnv, execEnv, jsonLines, MODEL_OF, runExec } from "../support/exec-harness.ts";
import { useMockProvider } from "../support/mock-provider/index.ts";

const mock = useMockProvider({ each: true });
const model = MODEL_OF.anthropic;
const DELTA = "y".repeat(200);

/** One exec turn (which makes the key), then ~9 MB of signed turns of chunks appended. */
async function bigSignedSession(setup: ExecEnv) {
  mock.enqueue({ blocks: [{ kind: "text", text: "Hello." }] });
  const run = await runExec(["--model", model, "--output-format", "stream-json", "hi"], setup);
  assert.equal(run.status, 0, run.stderr);
  const path = String(jsonLines(run.stdout)[0]!.log_path);
  const id = String(jsonLines(run.stdout)[0]!.session_id);
  const key = loadOrCreateSigningKey(setup.home);
  const signer = createCheckpointSigner(key, checkpointIndexPath(setup.home));
  const { writer } = SessionWriter.resume(path, { signer });
  for (let turn = 1; turn <= 30; turn++) {
    writer.append({ type: "turn/start", turn });
    for (let i = 0; i < 1500; i++) {
      const delta = `${turn}:${i}:${DELTA}`;
      writer.append({ type: "assistant/chunk", turn, step: 0, block: 0, kind: "text", delta });
    }
    writer.append({ type: "turn/end", turn, reason: "completed" });
  }
  writer.close();
  return { id, path, key, index: checkpointIndexPath(setup.home) };
}

function lines(path: string): string[] {
  return readFileSync(path, "utf8").split("\n").slice(0, -1);
}

/**
 * Rewrites raw lines with every `h` recomputed; each checkpoint names the new hash of the line
 * before it and, with `key` (a process holding the user's key), is signed again and recorded.
 */
function rewrite(path: string, edit: (all: string[]) => void, key?: SigningKey, index?: string) {
  const all = lines(path);
  edit(all);
  let previous = "";
  const records: string[] = [];
  const out = all.map((line, seq) => {
    let body = bodyOf(line, hMemberAt(line));
    if (body.includes('"type":"session/checkpoint"')) {
      body = body.replace(/"signed_h":"[0-9a-f]{64}"/, `"signed_h":"${previous}"`);
      if (key) {
        const session = /"session_id":"([^"]+)"/.exec(body)?.[1] as string;
        const sig = sign(null, checkpointMessage(session, seq - 1, previous), key.privateKey);
        body = body.replace(/"sig":"[^"]*"/, `"sig":"${sig.toString("base64")}"`);
        records.push(JSON.stringify({ session_id: session, seq: seq - 1, h: previous }));
      }
    }
    previous = chainHash(previous, body);
    return formatLine(body, previous);
  });
  writeFileSync(path, `${out.join("\n")}\n`);
  if (index) writeFileSync(index, `${records.join("\n")}\n`);
}

/** `exec --resume`'s one-line refusal: exit 1, no request sent. */
async function refused(setup: ExecEnv, id: string): Promise<string> {
  const requests = mock.requests.length;
  const run = await runExec(["--model", model, "--resume", id, "go on"], setup);
  assert.equal(run.status, 1, run.stderr);
  assert.equal(mock.requests.length, requests, "no request was sent");
  return run.stderr;
}

describe("exec --resume of a large signed log", () => {
  it("trusts signed chunks, refuses forged and malformed ones with the full read's line", async () => {
    const setup = execEnv(mock);
    const { id, path, key, index } = await bigSignedSession(setup);
    const pristine = `${path}.pristine`;
    const pristineIndex = `${index}.pristine`;
    copyFileSync(path, pristine);
    copyFileSync(index, pristineIndex);
    const restore = () => {
      copyFileSync(pristine, path);
      copyFileSync(pristineIndex, index);
    };
    const trust = { key, keyPath: key.source, indexPath: index };
    const chunkAt = lines(path).findIndex((line) => line.includes('"delta":"5:700:'));

    // A delta edited and every hash recomputed: the last signature no longer verifies.
    rewrite(path, (all) => {
      all[chunkAt] = (all[chunkAt] as string).replace('"delta":"5:700:', '"delta":"5:7X0:');
    });
    const last = lines(path).findLastIndex((line) => line.includes('"session/checkpoint"'));
    const forged = await refused(setup, id);
    assert.match(forged, new RegExp(`:${last + 1}: checkpoint signature does not verify`));
    assert.equal(forged.split("\n").length, 2, "one line");

    // A malformed chunk after the last checkpoint, its hash chained: the full read's line.
    restore();
    const tail = lines(path);
    const previous = hOf(tail.at(-1) as string, hMemberAt(tail.at(-1) as string));
    const body = `{"block":0,"delta":"late","kind":"bogus","seq":${tail.length},"step":0,"ts":"2026-12-01T00:00:00.000Z","turn":31,"type":"assistant/chunk","v":1}`;
    appendFileSync(path, `${formatLine(body, chainHash(previous, body))}\n`);
    const bad = await refused(setup, id);
    assert.match(bad, new RegExp(`:${tail.length + 1}: invalid assistant/chunk: kind`));
    assert.throws(() => readSession(path), { reason: /^invalid assistant\/chunk: kind/ });

    // The user's own key signed a malformed chunk: the full read refuses it, resume does not
    // parse it, and the resumed request carries the history.
    restore();
    rewrite(
      path,
      (all) => {
        all[chunkAt] = (all[chunkAt] as string).replace('"kind":"text"', '"kind":"bogus"');
      },
      key,
      index,
    );
    assert.throws(
      () => checkReceipt(path, readSession(path).events, trust),
      (error: unknown) => error instanceof SessionCorruptError && error.line === chunkAt + 1,
    );
    mock.enqueue({ blocks: [{ kind: "text", text: "Resumed." }] });
    const resumed = await runExec(["--model", model, "--resume", id, "go on"], setup);
    assert.equal(resumed.status, 0, resumed.stderr);
    assert.match(resumed.stdout, /Resumed\./);
    const request = JSON.stringify(mock.requests.at(-1)?.body);
    assert.match(request, /"hi".*"Hello\.".*"go on"/s);
  });
});

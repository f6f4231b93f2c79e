// Signed checkpoints: what a `session/checkpoint` signs (`checkpointMessage`) and the signer
// the writer calls at each turn end and at close (`createCheckpointSigner`), which signs with
// the user's key and, once the checkpoint is durable, records it in the checkpoint index.
// Verification is in receipt.ts; the key in signing-key.ts; the index in checkpoint-index.ts.
import { sign } from "node:crypto";
import { appendCheckpointRecord } from "./checkpoint-index.ts";
import type { EventInput } from "./events.ts";
import type { SigningKey } from "./signing-key.ts";

/** What a checkpoint's `sig` is the Ed25519 signature of (UTF-8). */
export function checkpointMessage(sessionId: string, seq: number, h: string): Buffer {
  return Buffer.from(`codewhale session checkpoint v1\n${sessionId}\n${seq}\n${h}\n`, "utf8");
}

/** Signs the chain at a point, and records a durable checkpoint in the index. */
export interface CheckpointSigner {
  /** The `session/checkpoint` event that signs event `seq`, whose hash is `h`. */
  checkpoint(sessionId: string, seq: number, h: string): EventInput;
  /** Called once the checkpoint line is synced to disk. */
  recorded(sessionId: string, seq: number, h: string): void;
}

export function createCheckpointSigner(key: SigningKey, indexPath: string): CheckpointSigner {
  return {
    checkpoint(sessionId, seq, h) {
      const sig = sign(null, checkpointMessage(sessionId, seq, h), key.privateKey);
      return {
        type: "session/checkpoint",
        session_id: sessionId,
        signed_seq: seq,
        signed_h: h,
        key: key.fingerprint,
        sig: sig.toString("base64"),
      };
    },
    recorded(sessionId, seq, h) {
      appendCheckpointRecord(indexPath, { session_id: sessionId, seq, h });
    },
  };
}

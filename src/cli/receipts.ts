// The CLI's side of session receipts: the user's key and checkpoint index for `exec` (sign,
// and check a log before resuming it), what `sessions verify [--key FILE]` trusts, and the
// lines it prints about a log's receipt. Called by exec-command.ts and sessions-command.ts.

import type { Receipts } from "../agent/index.ts";
import { resolveHome } from "../config/index.ts";
import { createCheckpointSigner } from "../session/checkpoint.ts";
import { checkpointIndexPath } from "../session/checkpoint-index.ts";
import type { Receipt, ReceiptTrust } from "../session/receipt.ts";
import {
  loadOrCreateSigningKey,
  loadSigningKey,
  readPublicKeyFile,
  signingKeyPath,
} from "../session/signing-key.ts";

/** The user's key (created on first run) and index, for a run that writes a session. */
export function execReceipts(env: NodeJS.ProcessEnv = process.env): Receipts {
  const home = resolveHome(env);
  const key = loadOrCreateSigningKey(home);
  const indexPath = checkpointIndexPath(home);
  return {
    signer: createCheckpointSigner(key, indexPath),
    trust: { key, keyPath: key.source, indexPath },
  };
}

/**
 * What `sessions verify` checks against: with `--key`, that public key alone (no index: it is
 * on the machine that wrote the log); else the user's own key, if any, and index.
 */
export function verifyTrust(keyFile: string | undefined, env = process.env): ReceiptTrust {
  if (keyFile !== undefined) {
    const key = readPublicKeyFile(keyFile);
    return { key, keyPath: keyFile, indexPath: null, everySignature: true, requireSignature: true };
  }
  const home = resolveHome(env);
  return {
    key: loadSigningKey(home),
    keyPath: signingKeyPath(home),
    indexPath: checkpointIndexPath(home),
    everySignature: true,
  };
}

/** The lines `sessions verify` prints after `ok …` about how far the log is proven. */
export function receiptLines(receipt: Receipt): string[] {
  const lines = [`chain intact up to seq ${receipt.lastSeq}`];
  const signed = receipt.signed;
  const cut = signed ? `a cut after seq ${signed.seq}` : "a cut";
  if (signed) {
    const unsigned = receipt.unsignedLines;
    lines.push(
      `signed up to seq ${signed.seq} by key ${signed.key} (${receipt.checkpoints} checkpoint${receipt.checkpoints === 1 ? "" : "s"}, the last at seq ${signed.checkpointSeq}); ${unsigned === 0 ? "no line after it" : `${unsigned} line${unsigned === 1 ? "" : "s"} after it unsigned`}`,
    );
  } else {
    lines.push(
      "unsigned: no checkpoint (written before codewhale signed logs, or by a run that ended before any turn end or close)",
    );
  }
  const index = receipt.index;
  if (index.state === "agrees") {
    lines.push(
      `checkpoint index agrees: the last checkpoint it records for this session (of seq ${index.seq}) is in the log`,
    );
  } else if (index.state === "no-record") {
    lines.push(
      `checkpoint index ${index.path} has no record of this session: ${cut} cannot be detected`,
    );
  } else if (index.state === "missing") {
    lines.push(`no checkpoint index at ${index.path}: ${cut} cannot be detected`);
  } else {
    lines.push(
      `checkpoint index not consulted (--key: it is on the machine that wrote the log): ${cut} cannot be detected here`,
    );
  }
  return lines;
}

// The receipt of an export: what it was derived from (session, SHA-256 of the log bytes read,
// last seq and chain head, the log's signing key), how (view, format, options), the SHA-256 of
// the output, the version and time, signed with the user's Ed25519 key. Also where each format
// carries it inline and how to find it again. Called by cli/export-command.ts and export-verify.ts.
import { sign, verify } from "node:crypto";
import * as z from "zod";
import { canonicalJson } from "../session/canonical-json.ts";
import type { SigningKey, TrustedKey } from "../session/signing-key.ts";
import { HTML_RECEIPT_MARKER, htmlReceipt, readHtmlReceipt } from "./export-html.ts";
import { JSONL_RECEIPT_TYPE } from "./export-jsonl.ts";
import { EXPORT_FORMATS } from "./export-render-types.ts";
import { EXPORT_VIEWS } from "./export-view.ts";

export const RECEIPT_VERSION = 1;

const receiptSchema = z.object({
  codewhale_export_receipt: z.literal(RECEIPT_VERSION),
  session_id: z.string(),
  log_bytes: z.number().int().nonnegative(),
  log_sha256: z.string().regex(/^[0-9a-f]{64}$/),
  last_seq: z.number().int().nonnegative(),
  chain_head: z.string(),
  /** The last checkpoint within the bytes read, when the log is signed there. */
  log_signed: z.object({ key: z.string(), signed_seq: z.number().int() }).nullable(),
  selector: z.object({
    view: z.enum(EXPORT_VIEWS),
    format: z.enum(EXPORT_FORMATS),
    until: z.number().int().nonnegative().nullable(),
    redacted: z.boolean(),
  }),
  /**
   * The subagents' logs the view rendered (added within v1): each read through the seq its
   * parent's link names, checked again by `export verify` as the log is.
   */
  children: z
    .array(
      z.object({
        session_id: z.string(),
        log_bytes: z.number().int().nonnegative(),
        log_sha256: z.string().regex(/^[0-9a-f]{64}$/),
        last_seq: z.number().int().nonnegative(),
        chain_head: z.string(),
      }),
    )
    .optional(),
  output_sha256: z.string().regex(/^[0-9a-f]{64}$/),
  codewhale_version: z.string(),
  created_at: z.string(),
  signature: z.object({ key: z.string(), sig: z.string() }),
});

export type ExportReceipt = z.infer<typeof receiptSchema>;
export type UnsignedReceipt = Omit<ExportReceipt, "signature">;

function receiptMessage(unsigned: UnsignedReceipt): Buffer {
  return Buffer.from(`codewhale export receipt v1\n${canonicalJson(unsigned)}\n`, "utf8");
}

export function signReceipt(unsigned: UnsignedReceipt, key: SigningKey): ExportReceipt {
  const sig = sign(null, receiptMessage(unsigned), key.privateKey).toString("base64");
  return { ...unsigned, signature: { key: key.fingerprint, sig } };
}

/** Null when the signature is the trusted key's and verifies; else the reason it does not. */
export function receiptSignatureProblem(receipt: ExportReceipt, key: TrustedKey): string | null {
  if (receipt.signature.key !== key.fingerprint) {
    return `signature wrong: the receipt is signed by key ${receipt.signature.key}, not by ${key.fingerprint} (${key.source}); pass --key <public key file> for another user's key`;
  }
  const { signature, ...unsigned } = receipt;
  const ok = verify(
    null,
    receiptMessage(unsigned),
    key.publicKey,
    Buffer.from(signature.sig, "base64"),
  );
  return ok ? null : "signature wrong: the receipt was changed after it was signed";
}

/** Parses a receipt's JSON; the reason when it is not one. */
export function parseReceipt(text: string): ExportReceipt | string {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return "the receipt is not JSON";
  }
  const parsed = receiptSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  return `the receipt is malformed (${issue?.path.join(".") || "top"}: ${issue?.message ?? "invalid"})`;
}

export function receiptJson(receipt: ExportReceipt): string {
  return JSON.stringify(receipt, null, 2);
}

/** The receipt as the file carries it after its body; "" for a canonical copy (sidecar only). */
export function inlineReceipt(receipt: ExportReceipt): string {
  const { view, format } = receipt.selector;
  if (format === "md") return `<!-- codewhale-receipt ${JSON.stringify(receipt)} -->\n`;
  if (format === "html") return htmlReceipt(receiptJson(receipt));
  if (view === "canonical") return "";
  return `${JSON.stringify({ type: JSONL_RECEIPT_TYPE, receipt })}\n`;
}

/**
 * Finds the inline receipt in the tail of an exported file (`tail` holds its last bytes, from
 * file offset `tailOffset`): the offset where the receipt starts (the body is everything before
 * it) and its JSON, or null when the tail holds none.
 */
export function findInlineReceipt(
  tail: Buffer,
  tailOffset: number,
): { bodyBytes: number; json: string; inline: string } | null {
  const text = tail.toString("latin1");
  const candidates: { at: number; json: (rest: string) => string | null }[] = [
    { at: text.lastIndexOf(HTML_RECEIPT_MARKER), json: readHtmlReceipt },
    {
      at: lineStart(text, text.lastIndexOf("<!-- codewhale-receipt {")),
      json: (rest) => /^<!-- codewhale-receipt (\{.*\}) -->\n$/.exec(rest)?.[1] ?? null,
    },
    {
      at: lineStart(text, text.lastIndexOf(`{"type":"${JSONL_RECEIPT_TYPE}"`)),
      json: (rest) => {
        const parsed = safeJson(rest);
        return parsed && typeof parsed === "object" && "receipt" in parsed
          ? JSON.stringify((parsed as { receipt: unknown }).receipt)
          : null;
      },
    },
  ];
  // The receipt ends the file: the latest marker wins (one quoted in a Markdown answer is earlier).
  candidates.sort((a, b) => b.at - a.at);
  for (const { at, json } of candidates) {
    if (at < 0) continue;
    const rest = Buffer.from(text.slice(at), "latin1").toString("utf8");
    const found = json(rest);
    if (found !== null) return { bodyBytes: tailOffset + at, json: found, inline: rest };
  }
  return null;
}

/** The index only when it starts a line (or the text), else -1. */
function lineStart(text: string, at: number): number {
  return at > 0 && text[at - 1] !== "\n" ? -1 : at;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

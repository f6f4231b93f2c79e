// `codewhale export verify FILE`: checks an export against its receipt and its source. The
// receipt (inline, or FILE.receipt.json) must be signed by the user's key (or --key's), the
// file's body must hash as the receipt says, the source log's bytes must be those read, and the
// view rendered again from them must be the same bytes. Exit 0 when all hold; 1 naming the first
// that does not (source changed, file edited, signature wrong); 2 when the source is missing.
import { closeSync, existsSync, openSync, readFileSync, readSync, statSync } from "node:fs";
import { dirname } from "node:path";
import type { Command } from "commander";
import { resolveHome } from "../config/index.ts";
import { ExportMismatchError, UsageError } from "../errors.ts";
import {
  type ExportReceipt,
  findInlineReceipt,
  inlineReceipt,
  parseReceipt,
  receiptSignatureProblem,
} from "../present/export-receipt.ts";
import { terminalSafe } from "../runner/index.ts";
import { canonicalJson } from "../session/canonical-json.ts";
import { findSession, isRegularFile, sessionPath } from "../session/paths.ts";
import { loadSigningKey, readPublicKeyFile, type TrustedKey } from "../session/signing-key.ts";
import { VERSION } from "../version.ts";
import { HashingSink } from "./export-output.ts";
import { hashFilePrefix, writeExportBody } from "./export-source.ts";
import { resolveSessionsDir, type SessionDirOptions } from "./session-context.ts";

interface VerifyOptions extends SessionDirOptions {
  key?: string;
}

/** How much of the end of a file is searched for its inline receipt. */
const TAIL_BYTES = 256 * 1024;

export function registerExportVerify(exportCommand: Command): void {
  exportCommand
    .command("verify <file>")
    .description(
      "check an export against its receipt and source session: exit 0 match, 1 naming what differs, 2 source missing",
    )
    .option("--key <file>", "check the receipt's signature against this public key")
    .option("--session-dir <dir>", "where session logs live (default $CODEWHALE_HOME/sessions)")
    .option("--cwd <dir>", "directory to find the project config from")
    .action((file: string, options: VerifyOptions) => verifyExport(file, options));
}

async function verifyExport(file: string, options: VerifyOptions): Promise<void> {
  if (!isRegularFile(file)) throw new UsageError(`no export at ${file}`);
  const mismatch = (reason: string) => new ExportMismatchError(file, reason);
  const { receipt, bodyBytes } = readReceipt(file, mismatch);
  const signature = receiptSignatureProblem(receipt, trustedKey(options.key, mismatch));
  if (signature) throw mismatch(signature);
  if (hashFilePrefix(file, bodyBytes) !== receipt.output_sha256) {
    throw mismatch("file edited: its content does not hash to the receipt's output_sha256");
  }
  const path = sourceOf(receipt, options);
  const id = receipt.session_id;
  const changed = `source changed: the first ${receipt.log_bytes} bytes of session ${id}'s log (${path}) are not those exported`;
  if (statSync(path).size < receipt.log_bytes) throw mismatch(`${changed}: the log is shorter`);
  if (hashFilePrefix(path, receipt.log_bytes) !== receipt.log_sha256) throw mismatch(changed);
  checkChildren(receipt, path, mismatch);
  const sink = new HashingSink(null);
  const info = await writeExportBody(path, receipt.selector, receipt.last_seq, sink);
  if (info.logBytes !== receipt.log_bytes || info.chainHead !== receipt.chain_head) {
    throw mismatch(`${changed}: seq ${receipt.last_seq} is not where the export ended`);
  }
  if (sink.digest() !== receipt.output_sha256) {
    throw mismatch(
      `view differs: rendered again from the unchanged source, the output is not the exported one (exported by codewhale ${receipt.codewhale_version}, this is ${VERSION})`,
    );
  }
  const { view, format } = receipt.selector;
  process.stdout.write(
    terminalSafe(
      `ok ${file}: ${view} ${format} of session ${id} through seq ${receipt.last_seq}; source unchanged${receipt.children?.length ? ` (and ${receipt.children.length === 1 ? "its subagent's log" : `its ${receipt.children.length} subagents' logs`})` : ""}, output identical, receipt signed by ${receipt.signature.key}\n`,
    ),
  );
}

/** Each subagent log the export rendered still starts with the bytes it read then. */
function checkChildren(
  receipt: ExportReceipt,
  parentPath: string,
  mismatch: (reason: string) => ExportMismatchError,
): void {
  const root = dirname(dirname(dirname(dirname(parentPath))));
  for (const child of receipt.children ?? []) {
    const path = sessionPath(root, child.session_id);
    const changed = `source changed: the first ${child.log_bytes} bytes of subagent session ${child.session_id}'s log (${path}) are not those exported`;
    if (!existsSync(path)) throw mismatch(`${changed}: the log is gone`);
    if (statSync(path).size < child.log_bytes) throw mismatch(`${changed}: the log is shorter`);
    if (hashFilePrefix(path, child.log_bytes) !== child.log_sha256) throw mismatch(changed);
  }
}

/** The receipt (inline, else FILE.receipt.json; both must agree) and the bytes it covers. */
function readReceipt(
  file: string,
  mismatch: (reason: string) => ExportMismatchError,
): { receipt: ExportReceipt; bodyBytes: number } {
  const size = statSync(file).size;
  const tailOffset = Math.max(0, size - TAIL_BYTES);
  const inline = findInlineReceipt(readAt(file, tailOffset, size - tailOffset), tailOffset);
  const sidecarPath = `${file}.receipt.json`;
  const sidecar = existsSync(sidecarPath) ? readFileSync(sidecarPath, "utf8") : null;
  const text = inline?.json ?? sidecar;
  if (text === null) throw mismatch(`no receipt: none inline and no ${sidecarPath}`);
  const receipt = parseReceipt(text);
  if (typeof receipt === "string") throw mismatch(receipt);
  if (inline && sidecar !== null) {
    const other = parseReceipt(sidecar);
    if (typeof other === "string" || canonicalJson(other) !== canonicalJson(receipt)) {
      throw mismatch(`the receipt in the file and ${sidecarPath} disagree`);
    }
  }
  if (inline && inline.inline !== inlineReceipt(receipt)) {
    throw mismatch("file edited: the receipt's text in the file was changed");
  }
  return { receipt, bodyBytes: inline ? inline.bodyBytes : size };
}

function trustedKey(
  keyFile: string | undefined,
  mismatch: (reason: string) => ExportMismatchError,
): TrustedKey {
  if (keyFile !== undefined) return readPublicKeyFile(keyFile);
  const home = resolveHome(process.env);
  const key = loadSigningKey(home);
  if (!key) {
    throw mismatch(
      "signature wrong: there is no signing key here to check it with; pass --key <public key file>",
    );
  }
  return key;
}

/** The source log, or exit 2 naming the session and where it was looked for. */
function sourceOf(receipt: ExportReceipt, options: VerifyOptions): string {
  const dir = resolveSessionsDir(options);
  try {
    return findSession(dir, receipt.session_id);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    throw new UsageError(`source missing: session ${receipt.session_id} is not in ${dir}`);
  }
}

function readAt(path: string, position: number, length: number): Buffer {
  const fd = openSync(path, "r");
  try {
    const buffer = Buffer.alloc(length);
    const read = readSync(fd, buffer, 0, length, position);
    return buffer.subarray(0, read);
  } finally {
    closeSync(fd);
  }
}

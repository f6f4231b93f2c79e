// `codewhale export <session>`: writes a view of a session (canonical, response-only,
// thinking-only) as jsonl, md or html, with a signed receipt inline and in FILE.receipt.json;
// canonical jsonl is a byte copy of the log. Never writes into the sessions directory, never
// over a session log. `export verify FILE` is export-verify.ts. Registered by cli/main.ts.
import type { Command } from "commander";
import { resolveHome } from "../config/index.ts";
import {
  type ExportReceipt,
  inlineReceipt,
  receiptJson,
  signReceipt,
} from "../present/export-receipt.ts";
import type { ExportFormat } from "../present/export-render-types.ts";
import type { ExportView } from "../present/export-view.ts";
import { terminalSafe } from "../runner/index.ts";
import { findSession } from "../session/paths.ts";
import { loadOrCreateSigningKey } from "../session/signing-key.ts";
import { summarizeSession } from "../session/summary.ts";
import { VERSION } from "../version.ts";
import { checkExportTarget, ExportFile, HashingSink, writeStdout } from "./export-output.ts";
import { writeExportBody } from "./export-source.ts";
import { registerExportVerify } from "./export-verify.ts";
import { resolveSessionsDir, type SessionDirOptions } from "./session-context.ts";
import { checkSeqInRange, formatOption, seqOption, viewOption } from "./view-options.ts";

interface ExportOptions extends SessionDirOptions {
  view: ExportView;
  format: ExportFormat;
  until?: number;
  output?: string;
  redact: boolean;
}

export function registerExportCommand(program: Command): void {
  const command = program
    .command("export")
    .description("write a view of a session as jsonl, md or html, with a signed receipt")
    .argument("<session>", "session id or unique prefix")
    .option("--view <view>", "canonical, response-only or thinking-only", viewOption, "canonical")
    .option("--format <format>", "jsonl, md or html", formatOption, "md")
    .option("--until <seq>", "export the session as it stood at this seq", seqOption("--until"))
    .option("-o, --output <file>", "write to this file (and FILE.receipt.json); default stdout")
    .option("--no-redact", "keep secret-shaped strings in a derived view (recorded in the receipt)")
    .option("--session-dir <dir>", "where session logs live (default $CODEWHALE_HOME/sessions)")
    .option("--cwd <dir>", "directory to find the project config from")
    .action((id: string, options: ExportOptions) => exportSession(id, options));
  registerExportVerify(command);
}

async function exportSession(id: string, options: ExportOptions): Promise<void> {
  const sessionsDir = resolveSessionsDir(options);
  const done = await exportLog(findSession(sessionsDir, id), sessionsDir, options);
  if (done) process.stderr.write(terminalSafe(`${done}\n`));
}

/** What one export writes: the view, its format, how far, where (stdout when no output). */
export type ExportRequest = Pick<ExportOptions, "view" | "format" | "until" | "output" | "redact">;

/**
 * Exports the log at `path` as `request` says, with its signed receipt (also the terminal's
 * `/export`). Returns the line saying what was written where, when written to a file.
 */
export async function exportLog(
  path: string,
  sessionsDir: string,
  options: ExportRequest,
): Promise<string | undefined> {
  const summary = summarizeSession(path);
  const lastSeq = summary.events - 1;
  if (options.until !== undefined) checkSeqInRange("--until", options.until, lastSeq, summary.id);
  const output = options.output;
  if (output !== undefined) {
    checkExportTarget(output, sessionsDir);
    checkExportTarget(`${output}.receipt.json`, sessionsDir);
  }
  const key = loadOrCreateSigningKey(resolveHome(process.env));
  const file = output === undefined ? null : new ExportFile(output);
  try {
    const receipt = await writeExport(path, options, options.until ?? lastSeq, file, (unsigned) =>
      signReceipt(unsigned, key),
    );
    file?.commit();
    if (output === undefined) return undefined;
    writeSidecar(`${output}.receipt.json`, receipt);
    const { view, format } = receipt.selector;
    return `exported ${view} ${format} of session ${receipt.session_id} through seq ${receipt.last_seq} to ${output} (receipt ${output}.receipt.json)`;
  } catch (error) {
    file?.discard();
    throw error;
  }
}

/** Renders (or copies) the view into the file or stdout, then its receipt; returns the receipt. */
async function writeExport(
  path: string,
  options: ExportRequest,
  throughSeq: number,
  file: ExportFile | null,
  sign: (unsigned: Omit<ExportReceipt, "signature">) => ExportReceipt,
): Promise<ExportReceipt> {
  const sink = new HashingSink(file ? file.write : writeStdout);
  const { view, format } = options;
  const selector = { view, format, until: options.until ?? null, redacted: options.redact };
  if (view === "canonical" && format === "jsonl") selector.redacted = false;
  const info = await writeExportBody(path, selector, throughSeq, sink);
  const receipt = sign({
    codewhale_export_receipt: 1,
    session_id: info.sessionId,
    log_bytes: info.logBytes,
    log_sha256: info.logSha256,
    last_seq: info.lastSeq,
    chain_head: info.chainHead,
    log_signed: info.logSigned,
    selector,
    ...(info.children.length > 0 ? { children: info.children } : {}),
    output_sha256: sink.digest(),
    codewhale_version: VERSION,
    created_at: new Date().toISOString(),
  });
  sink.writeUnhashed(inlineReceipt(receipt));
  return receipt;
}

function writeSidecar(path: string, receipt: ExportReceipt): void {
  const file = new ExportFile(path);
  try {
    file.write(Buffer.from(`${receiptJson(receipt)}\n`, "utf8"));
    file.commit();
  } catch (error) {
    file.discard();
    throw error;
  }
}

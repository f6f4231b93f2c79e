// `codewhale sessions list|show|verify|path`: read-only views of the session logs, and `repair`
// (sessions-repair.ts). Registered by cli/main.ts; the reading and verifying is done by
// src/session. `show` opens a log with a damaged tail as far as it is valid, and says so.
import type { Command } from "commander";
import { ExitCode, SessionCorruptError, UsageError } from "../errors.ts";
import { plural } from "../present/format.ts";
import { escapeControls } from "../runner/index.ts";
import type { SessionEvent } from "../session/events.ts";
import { foldFigures } from "../session/figures.ts";
import { findSession, isRegularFile } from "../session/paths.ts";
import { readSession, SessionReader, type TailDamage } from "../session/reader.ts";
import { ReceiptVerifier } from "../session/receipt.ts";
import { summarizeSession } from "../session/summary.ts";
import { receiptLines, verifyTrust } from "./receipts.ts";
import { resolveSessionsDir, type SessionDirOptions } from "./session-context.ts";
import { renderEventLines, renderSummaryHeader } from "./session-render.ts";
import { type ListOptions, listSessions } from "./sessions-list.ts";
import { registerRepairCommand } from "./sessions-repair.ts";

interface JsonOption extends SessionDirOptions {
  json?: boolean;
}

interface VerifyOptions extends SessionDirOptions {
  key?: string;
}

interface ShowOptions extends JsonOption {
  at?: number;
}

function parseSeq(value: string): number {
  const seq = Number(value);
  if (!Number.isSafeInteger(seq) || seq < 0) {
    throw new UsageError(`--at needs a seq (a whole number from 0), not "${value}"`);
  }
  return seq;
}

export function registerSessionsCommand(program: Command): void {
  const sessions = program.command("sessions").description("list, show and verify session logs");
  sessions
    .command("list")
    .description("list sessions, most recent activity first")
    .option(
      "--cwd <dir>",
      "the sessions of this directory and below (default: the current one, inside a project)",
    )
    .option("--all", "every session, wherever it ran")
    .option("--limit <n>", "show at most this many")
    .option("--session-dir <dir>", "where session logs live (default $CODEWHALE_HOME/sessions)")
    .option("--json", "print a JSON array")
    .action((options: ListOptions) => listSessions(options));
  withDir(sessions.command("show <id>"))
    .description("show one session (id or unique prefix)")
    .option("--json", "print { summary, events } as JSON")
    .option("--at <seq>", "show the session as it stood at this seq (a snapshot)", parseSeq)
    .action((id: string, options: ShowOptions) => showSession(id, options));
  withDir(sessions.command("verify <id-or-path>"))
    .description(
      "verify a log's hash chain, format and signed checkpoints; exit 1 naming the first problem",
    )
    .option("--key <file>", "check the checkpoints against this public key (codewhale key show)")
    .action((target: string, options: VerifyOptions) => verifySession(target, options));
  withDir(sessions.command("path <id>"))
    .description("print the log file of a session")
    .action((id: string, options: SessionDirOptions) => {
      process.stdout.write(`${findSession(resolveSessionsDir(options), id)}\n`);
    });
  registerRepairCommand(sessions, withDir);
}

function withDir(command: Command): Command {
  return command
    .option("--session-dir <dir>", "where session logs live (default $CODEWHALE_HOME/sessions)")
    .option("--cwd <dir>", "directory to find the project config from");
}

function showSession(id: string, options: ShowOptions): void {
  const path = findSession(resolveSessionsDir(options), id);
  const { events, summary: read } = readSession(path, {
    tolerateDamagedTail: true,
    ...(options.at === undefined ? {} : { untilSeq: options.at }),
  });
  const damaged = read.damaged ?? null;
  // The cheap summary counts from the last line; past a damaged tail, count what verified.
  const summary = { ...summarizeSession(path), ...(damaged ? { events: read.events } : {}) };
  const figures = foldFigures(events);
  if (options.json) {
    const shown = { summary, torn: read.torn, damaged, events, figures };
    process.stdout.write(`${JSON.stringify(shown)}
`);
    return;
  }
  const verified = verificationLine(path, events, damaged, read.torn);
  const header = renderSummaryHeader({ summary, figures, verified });
  const lines = [...header, "", ...renderEventLines(events)];
  if (read.torn) lines.push(`(torn last line: ${read.torn.bytes} bytes, cut on resume)`);
  if (damaged) lines.push(escapeControls(damagedTailNote(damaged, summary.id)));
  process.stdout.write(`${lines.join("\n")}\n`);
}

function verifySession(target: string, options: VerifyOptions): void {
  const path = target.endsWith(".jsonl")
    ? target
    : findSession(resolveSessionsDir(options), target);
  if (!isRegularFile(path)) throw new UsageError(`no session log at ${path}`);
  const reader = new SessionReader(path, { strictCanonical: true });
  const receipt = new ReceiptVerifier(path, verifyTrust(options.key));
  for (const event of reader.events()) receipt.push(event); // every line is checked here
  const { events, lastHash, torn } = reader.summary;
  if (torn) {
    const reason = `torn last line (${torn.bytes} bytes after the last complete event; resume cuts it)`;
    throw new SessionCorruptError(path, events + 1, reason);
  }
  const proven = receiptLines(receipt.finish());
  process.stdout.write(`ok ${path}: ${events} events, chain intact, last h ${lastHash}\n`);
  process.stdout.write(`${proven.map((line) => `  ${line}\n`).join("")}`);
  process.exitCode = ExitCode.ok;
}

/**
 * How far the shown events verify: the hash chain (checked as they were read), then the
 * signed checkpoints against the user's key; a problem is named, not thrown (`show` is a view).
 */
function verificationLine(
  path: string,
  events: readonly SessionEvent[],
  damaged: TailDamage | null,
  torn: { bytes: number } | null,
): string {
  const lastSeq = events.at(-1)?.seq ?? -1;
  const tail = damaged
    ? `; damaged tail after seq ${damaged.afterSeq} not shown`
    : torn
      ? `; torn last line (${torn.bytes} bytes)`
      : "";
  let signed: string;
  try {
    const receipt = new ReceiptVerifier(path, verifyTrust(undefined));
    for (const event of events) receipt.push(event);
    const { signed: last, unsignedLines } = receipt.finish();
    signed = last
      ? `signed to seq ${last.seq} by key ${last.key}${unsignedLines > 0 ? ` (${plural(unsignedLines, "later line")} unsigned)` : ""}`
      : "unsigned (no checkpoint)";
  } catch (error) {
    if (!(error instanceof SessionCorruptError)) throw error;
    signed = `NOT VERIFIED: line ${error.line}: ${error.reason}`;
  }
  return `chain intact to seq ${lastSeq}${tail}; ${signed}`;
}

/** The one line `show` ends with when it stopped at a damaged tail. */
function damagedTailNote(damaged: TailDamage, id: string): string {
  const where = `line ${damaged.line}: ${damaged.reason}; ${damaged.bytes} bytes not shown`;
  return `(damaged tail after seq ${damaged.afterSeq}: ${where}; \`codewhale sessions repair ${id}\` cuts it, keeping the cut lines)`;
}

// `codewhale sessions list|show|stats|verify|path`: read-only views of the session logs, and `repair`
// (sessions-repair.ts). Registered by cli/main.ts; the reading and verifying is done by
// src/session. `show` opens a log with a damaged tail as far as it is valid, and says so.
import type { Command } from "commander";
import { ExitCode, SessionCorruptError, UsageError } from "../errors.ts";
import { plural } from "../present/format.ts";
import { findSession, isRegularFile } from "../session/paths.ts";
import { SessionReader } from "../session/reader.ts";
import { ReceiptVerifier } from "../session/receipt.ts";
import { receiptLines, verifyTrust } from "./receipts.ts";
import { resolveSessionsDir, type SessionDirOptions } from "./session-context.ts";
import { readShown, showText } from "./session-show.ts";
import { type ListOptions, listSessions } from "./sessions-list.ts";
import { registerRepairCommand } from "./sessions-repair.ts";
import { printSessionStats, type StatsOptions } from "./sessions-stats.ts";

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
    .description("show one session (id, short id or unique prefix)")
    .option("--json", "print { summary, events } as JSON")
    .option("--at <seq>", "show the session as it stood at this seq (a snapshot)", parseSeq)
    .action((id: string, options: ShowOptions) => showSession(id, options));
  withDir(sessions.command("stats <id>"))
    .description("bytes per view, storage by event type, replay tokens, cache hits, cost per turn")
    .option("--json", "print the figures as JSON")
    .action((id: string, options: StatsOptions) => printSessionStats(id, options));
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
  const shown = readShown(path, options.at);
  if (options.json) {
    const { summary, torn, damaged, events, figures } = shown;
    process.stdout.write(`${JSON.stringify({ summary, torn, damaged, events, figures })}\n`);
    return;
  }
  process.stdout.write(showText(shown));
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
  process.stdout.write(
    `ok ${path}: ${plural(events, "event")}, chain intact, last h ${lastHash}\n`,
  );
  process.stdout.write(`${proven.map((line) => `  ${line}\n`).join("")}`);
  process.exitCode = ExitCode.ok;
}

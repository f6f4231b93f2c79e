// `codewhale sessions list|show|stats|verify|path`: read-only views of the session logs, and `repair`
// (sessions-repair.ts). Registered by cli/main.ts; the reading and verifying is done by
// src/session. `show` opens a log with a damaged tail as far as it is valid, and says so.
import type { Command } from "commander";
import { checkTimeline } from "../checkpoints/index.ts";
import { ExitCode, SessionCorruptError, UsageError } from "../errors.ts";
import type { ExportView } from "../present/export-view.ts";
import { plural } from "../present/format.ts";
import { jsonSafe } from "../runner/index.ts";
import type { SessionEvent } from "../session/events.ts";
import { imageDirOf, readStoredImage } from "../session/images.ts";
import { findSession, isRegularFile } from "../session/paths.ts";
import { SessionReader } from "../session/reader.ts";
import { ReceiptVerifier } from "../session/receipt.ts";
import { registerPruneCommand } from "./checkpoints-prune.ts";
import { printOut } from "./print.ts";
import { receiptLines, verifyTrust } from "./receipts.ts";
import { resolveSessionsDir, type SessionDirOptions } from "./session-context.ts";
import { readShown, showText } from "./session-show.ts";
import { type ListOptions, listSessions } from "./sessions-list.ts";
import { registerRepairCommand } from "./sessions-repair.ts";
import { registerSearchCommands } from "./sessions-search.ts";
import { showView } from "./sessions-show-view.ts";
import { printSessionStats, type StatsOptions } from "./sessions-stats.ts";
import { checkSeqInRange, seqOption, viewOption } from "./view-options.ts";

interface JsonOption extends SessionDirOptions {
  json?: boolean;
}

interface VerifyOptions extends SessionDirOptions {
  key?: string;
}

interface ShowOptions extends JsonOption {
  at?: number;
  view?: ExportView;
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
    .option(
      "--at <seq>",
      "show the session as it stood at this seq (a snapshot)",
      seqOption("--at"),
    )
    .option(
      "--view <view>",
      "canonical (every event), response-only or thinking-only, as export",
      viewOption,
    )
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
  registerPruneCommand(sessions, withDir);
  registerSearchCommands(sessions, withDir);
}

function withDir(command: Command): Command {
  return command
    .option("--session-dir <dir>", "where session logs live (default $CODEWHALE_HOME/sessions)")
    .option("--cwd <dir>", "directory to find the project config from");
}

async function showSession(id: string, options: ShowOptions): Promise<void> {
  const path = findSession(resolveSessionsDir(options), id);
  const view = options.view ?? "canonical";
  if (view !== "canonical" && options.json) {
    throw new UsageError(
      `--json shows every event; for the ${view} view as JSON use codewhale export --format jsonl`,
    );
  }
  const shown = readShown(path, options.at);
  const lastSeq = shown.events.at(-1)?.seq ?? -1;
  if (options.at !== undefined) checkSeqInRange("--at", options.at, lastSeq, shown.summary.id);
  if (view !== "canonical") return showView(shown.events, view, lastSeq);
  if (options.json) {
    const { summary, torn, damaged, events, figures } = shown;
    const shownEvents = events.map(withoutImageData);
    const json = JSON.stringify({ summary, torn, damaged, events: shownEvents, figures });
    process.stdout.write(`${jsonSafe(json)}\n`);
    return;
  }
  printOut(showText(shown));
}

/** An event as `--json` prints it: an image block's base64 left out (`data_omitted`). */
function withoutImageData(event: SessionEvent): SessionEvent | Record<string, unknown> {
  if (event.type !== "tool/result" || !event.blocks) return event;
  const blocks = event.blocks.map(({ data: _data, ...block }) => ({
    ...block,
    data_omitted: true,
  }));
  return { ...event, blocks };
}

/**
 * Checks every image a `user/message` or `tool/result` names against its file beside the log;
 * returns how many it checked, or throws naming the first file that is missing or not what its
 * hash says.
 */
function checkImages(path: string, events: SessionEvent[]): number {
  const dir = imageDirOf(path);
  let checked = 0;
  for (const event of events) {
    if (event.type !== "user/message" && event.type !== "tool/result") continue;
    for (const image of event.images ?? []) {
      const stored = readStoredImage(dir, image.sha256);
      if (!stored.ok) {
        const what = stored.problem === "missing" ? "is missing" : "does not match its SHA-256";
        throw new SessionCorruptError(path, event.seq + 1, `image file ${stored.path} ${what}`);
      }
      checked++;
    }
  }
  return checked;
}

function verifySession(target: string, options: VerifyOptions): void {
  const path = target.endsWith(".jsonl")
    ? target
    : findSession(resolveSessionsDir(options), target);
  process.stdout.write(`${verifyLines(path, options.key).join("\n")}\n`);
  process.exitCode = ExitCode.ok;
}

/**
 * Checks one log (chain, format, signed checkpoints) and says what it proves, as the lines
 * `sessions verify` prints; throws the typed error naming the first problem. Also `/verify`.
 */
export function verifyLines(path: string, keyFile?: string): string[] {
  if (!isRegularFile(path)) throw new UsageError(`no session log at ${path}`);
  const reader = new SessionReader(path, { strictCanonical: true });
  const receipt = new ReceiptVerifier(path, verifyTrust(keyFile));
  const marks: SessionEvent[] = [];
  const imaged: SessionEvent[] = [];
  for (const event of reader.events()) {
    receipt.push(event); // every line is checked here
    if (event.type === "user/message" || event.type.startsWith("checkpoint/")) marks.push(event);
    if ((event.type === "user/message" || event.type === "tool/result") && event.images) {
      imaged.push(event);
    }
  }
  const { events, lastHash, torn } = reader.summary;
  if (torn) {
    const reason = `torn last line (${torn.bytes} bytes after the last complete event; resume cuts it)`;
    throw new SessionCorruptError(path, events + 1, reason);
  }
  const proven = receiptLines(receipt.finish());
  const images = checkImages(path, imaged);
  if (images > 0) proven.push(`${plural(images, "image")} match their SHA-256`);
  const checked = checkTimeline(marks);
  if (!checked.ok) throw new SessionCorruptError(path, checked.seq + 1, checked.reason);
  if (checked.checkpoints > 0 || checked.rewinds > 0) {
    const rewinds = plural(checked.rewinds, "rewind");
    proven.push(`${plural(checked.checkpoints, "workspace checkpoint")} and ${rewinds} agree`);
  }
  return [
    `ok ${path}: ${plural(events, "event")}, chain intact, last h ${lastHash}`,
    ...proven.map((line) => `  ${line}`),
  ];
}

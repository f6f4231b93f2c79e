// `codewhale rewind <session>` and `codewhale checkpoints <session>` (docs/rewind.md): the
// rewind of a session that is not running, done under its writer lock and recorded in its log
// (`by: cli`), and one line per prompt with the files each changed. A rewind refused for files
// changed outside codewhale exits 4 naming them. Registered by cli/main.ts.
import type { Command, OptionValues } from "commander";
import { CheckpointStore, type RewindRequest, rewind } from "../checkpoints/index.ts";
import { loadConfig, resolveHome } from "../config/index.ts";
import { UsageError } from "../errors.ts";
import { terminalSafe } from "../runner/index.ts";
import type { EventInput, SessionEvent } from "../session/events.ts";
import { findSession } from "../session/paths.ts";
import { readSession } from "../session/reader.ts";
import { ReceiptVerifier } from "../session/receipt.ts";
import { SessionWriter } from "../session/writer.ts";
import { checkpointLines } from "./checkpoints-list.ts";
import { positiveInteger } from "./flag-values.ts";
import { execReceipts } from "./receipts.ts";
import { resolveSessionsDir, type SessionDirOptions } from "./session-context.ts";

interface RewindOptions extends SessionDirOptions, OptionValues {
  to?: number;
  checkpoint?: number;
  code?: boolean;
  conversation?: boolean;
  both?: boolean;
  file?: string;
  force?: boolean;
  redo?: boolean;
  finish?: boolean;
}

export function registerRewindCommands(program: Command): void {
  withDir(program.command("rewind <session>"))
    .description("put the workspace (or the conversation) back as it was before a prompt")
    .option(
      "--to <n>",
      "before the session's Nth prompt, counting from 1 (default: the last)",
      (text: string) => positiveInteger("--to", text),
    )
    .option(
      "--checkpoint <n>",
      "to checkpoint N (codewhale checkpoints lists them)",
      (text: string) => positiveInteger("--checkpoint", text),
    )
    .option("--code", "the workspace's files (the default)")
    .option("--conversation", "the history the next request replays")
    .option("--both", "the files and the history")
    .option("--file <path>", "only this file or folder (workspace-relative)")
    .option("--force", "overwrite files changed outside codewhale since the checkpoint")
    .option("--redo", "undo the last rewind")
    .option("--finish", "only finish a rewind that was interrupted")
    .action((session: string, options: RewindOptions) => rewindSession(session, options));
  withDir(program.command("checkpoints <session>"))
    .description("one line per prompt with the files it changed, then the rewinds")
    .option("--json", "print the prompts, checkpoints and rewinds as JSON")
    .action((session: string, options: SessionDirOptions & { json?: boolean }) => {
      const path = findSession(resolveSessionsDir(options), session);
      const { events } = readSession(path, { tolerateDamagedTail: true });
      process.stdout.write(`${checkpointLines(events, options.json === true).join("\n")}\n`);
    });
}

function withDir(command: Command): Command {
  return command
    .option("--session-dir <dir>", "where session logs live (default $CODEWHALE_HOME/sessions)")
    .option("--cwd <dir>", "directory to find the project config from");
}

async function rewindSession(session: string, options: RewindOptions): Promise<void> {
  const request = requestOf(options);
  const path = findSession(resolveSessionsDir(options), session);
  const receipts = execReceipts();
  const receipt = new ReceiptVerifier(path, receipts.trust);
  const { writer } = SessionWriter.resume(path, { signer: receipts.signer });
  try {
    writer.sync();
    const { events } = readSession(path);
    for (const event of events) receipt.push(event);
    receipt.finish();
    const store = await openStore(events);
    const append = (event: EventInput) => writer.append(event);
    const done = await rewind({ store, events, append, sync: () => writer.sync() }, request);
    for (const line of doneLines(done.event)) process.stdout.write(`${terminalSafe(line)}\n`);
  } finally {
    writer.close();
  }
}

function requestOf(options: RewindOptions): RewindRequest {
  const scopes = [options.code, options.conversation, options.both].filter(Boolean).length;
  if (scopes > 1) throw new UsageError("choose one of --code, --conversation and --both");
  if (options.to !== undefined && options.checkpoint !== undefined) {
    throw new UsageError("--to and --checkpoint cannot be used together");
  }
  const scope = options.both ? "both" : options.conversation ? "conversation" : "code";
  if (options.file !== undefined && scope !== "code") {
    throw new UsageError(
      "--file restores files only: it cannot be used with --conversation or --both",
    );
  }
  return {
    scope,
    by: "cli",
    ...(options.to !== undefined ? { prompt: options.to } : {}),
    ...(options.checkpoint !== undefined ? { checkpoint: options.checkpoint } : {}),
    ...(options.file !== undefined ? { file: options.file } : {}),
    ...(options.force ? { force: true } : {}),
    ...(options.redo ? { redo: true } : {}),
    ...(options.finish ? { finish: true } : {}),
  };
}

/** The store of the session, for its workspace, with the workspace's limits. */
async function openStore(events: readonly SessionEvent[]): Promise<CheckpointStore> {
  const start = events[0];
  if (start?.type !== "session/start") throw new UsageError("the log has no session/start");
  const loaded = loadConfig({ cwd: start.cwd, env: process.env });
  const limits = {
    maxFileBytes: loaded.config.checkpoints.max_file_bytes,
    maxCaptureBytes: loaded.config.checkpoints.max_checkpoint_bytes,
  };
  const home = resolveHome(process.env);
  return CheckpointStore.open({ home, sessionId: start.session_id, cwd: start.cwd, limits });
}

function doneLines(event: SessionEvent): string[] {
  if (event.type !== "checkpoint/rewind") return [];
  const what = event.redo_of !== undefined ? `undid the rewind at seq ${event.redo_of}` : "rewound";
  const where =
    event.prompt !== undefined
      ? `to before prompt ${event.prompt}`
      : event.to !== undefined
        ? `to checkpoint ${event.to}`
        : "";
  const lines = [`${what} (${event.scope}) ${where}`.trim()];
  if (event.recovered) lines[0] = `finished an interrupted rewind (${event.scope})`;
  for (const file of event.files)
    lines.push(`  ${file.hash === null ? "removed" : "restored"} ${file.path}`);
  if (event.scope !== "conversation" && event.files.length === 0) lines.push("  no file differed");
  if (event.redo_point !== undefined)
    lines.push(
      `undo this with: codewhale rewind <session> --redo (or --checkpoint ${event.redo_point})`,
    );
  return lines;
}

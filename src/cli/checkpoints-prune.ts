// The checkpoint stores on disk ($CODEWHALE_HOME/checkpoints/<session>/, docs/rewind.md): what
// they take (`codewhale doctor`'s `checkpoints` line) and `codewhale sessions prune`, which
// removes the stores of sessions inactive for `[checkpoints] keep_days` (default 30) or whose
// log is gone. Session logs are never removed: they are the receipt. Registered by
// sessions-command.ts; `checkpointsCheck` called by doctor-command.ts.
import { readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Command } from "commander";
import { loadConfig, resolveHome, sessionsDir } from "../config/index.ts";
import { plural } from "../present/format.ts";
import { terminalSafe } from "../runner/index.ts";
import { isSessionId, listSessionFiles, sessionIdOfPath } from "../session/paths.ts";
import { summarizeHead } from "../session/summary.ts";
import { nonNegativeInteger } from "./flag-values.ts";
import type { SessionDirOptions } from "./session-context.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

interface Store {
  id: string;
  path: string;
  bytes: number;
}

/** Every session's store, with the bytes it takes. */
function stores(home: string): Store[] {
  const dir = join(home, "checkpoints");
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .filter(isSessionId)
    .map((id) => ({ id, path: join(dir, id), bytes: bytesOf(join(dir, id)) }));
}

function bytesOf(path: string): number {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.size;
  return readdirSync(path).reduce((sum, name) => sum + bytesOf(join(path, name)), 0);
}

/** `codewhale doctor`: how many stores, and how much they take. */
export function checkpointsCheck(home: string) {
  const all = stores(home);
  const bytes = all.reduce((sum, store) => sum + store.bytes, 0);
  const detail = `${plural(all.length, "session store")}, ${(bytes / 1e6).toFixed(1)} MB in ${join(home, "checkpoints")} (codewhale sessions prune removes old ones)`;
  return { name: "checkpoints", status: "ok" as const, detail };
}

interface PruneOptions extends SessionDirOptions {
  olderThan?: number;
  dryRun?: boolean;
}

export function registerPruneCommand(sessions: Command, withDir: (c: Command) => Command): void {
  withDir(sessions.command("prune"))
    .description(
      "remove the checkpoint stores of sessions inactive for [checkpoints] keep_days (30)",
    )
    .option(
      "--older-than <days>",
      "inactive for this many days (default: keep_days)",
      (text: string) => nonNegativeInteger("--older-than", text),
    )
    .option("--dry-run", "say what would be removed, remove nothing")
    .action((options: PruneOptions) => prune(options));
}

function prune(options: PruneOptions): void {
  const loaded = loadConfig({ cwd: options.cwd ?? process.cwd(), env: process.env });
  const days = options.olderThan ?? loaded.config.checkpoints.keep_days;
  const home = resolveHome(process.env);
  const active = lastActivity(sessionsDir(loaded, options.sessionDir));
  const cutoff = Date.now() - days * DAY_MS;
  let freed = 0;
  let removed = 0;
  for (const store of stores(home)) {
    const last = active.get(store.id);
    if (last !== undefined && last >= cutoff) continue;
    const why =
      last === undefined
        ? "its log is gone"
        : `inactive since ${new Date(last).toISOString().slice(0, 10)}`;
    if (!options.dryRun) rmSync(store.path, { recursive: true, force: true });
    process.stdout.write(
      `${terminalSafe(`${options.dryRun ? "would remove" : "removed"} ${store.path} (${why}, ${(store.bytes / 1e6).toFixed(1)} MB)`)}\n`,
    );
    freed += store.bytes;
    removed++;
  }
  const verb = options.dryRun ? "would free" : "freed";
  process.stdout.write(
    `${plural(removed, "checkpoint store")}; ${verb} ${(freed / 1e6).toFixed(1)} MB; session logs are kept\n`,
  );
}

/** Each session's last activity (ms), from the head and last line of its log. */
function lastActivity(dir: string): Map<string, number> {
  const active = new Map<string, number>();
  for (const path of listSessionFiles(dir)) {
    const summary = summarizeHead(path);
    const at = Date.parse(summary.lastActivity ?? summary.started ?? "");
    active.set(sessionIdOfPath(path), Number.isNaN(at) ? 0 : at);
  }
  return active;
}

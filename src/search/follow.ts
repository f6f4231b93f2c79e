// Keeps a home's search index up to date while a session runs (docs/search.md): after each
// turn, the session's own log; after its first turn, every log the index has not seen, one per
// tick in the background, so a later search starts from a current index. Only where the index
// exists (the first search builds it); a failure (the engine missing, the database busy) stops
// the updates quietly, since every search catches up anyway. Used by agent/compose-session.ts.
import type { Database } from "better-sqlite3";
import { listSessionFiles } from "../session/paths.ts";
import { indexBytes, openIndexDb } from "./index-db.ts";
import { syncIndex } from "./indexer.ts";

interface FollowOptions {
  home: string;
  sessionsDir: string;
  /** The session's own log. */
  logPath: string;
}

interface SessionFollower {
  /** A turn ended: index the session's log (and, the first time, the logs not seen yet). */
  turnEnded(): void;
  /** Stops the updates and closes the index. */
  close(): void;
}

export function followSession(options: FollowOptions): SessionFollower {
  let db: Database | undefined;
  let stopped = false;
  let caughtUp = false;
  let running: Promise<void> = Promise.resolve();

  const stop = () => {
    stopped = true;
    db?.close();
    db = undefined;
  };

  const update = async () => {
    if (stopped) return;
    if (db === undefined) {
      if (indexBytes(options.home) === 0) return;
      db = await openIndexDb(options.home);
      if (stopped) return stop();
    }
    syncIndex(db, options.sessionsDir, [options.logPath]);
    if (!caughtUp) {
      caughtUp = true;
      catchUp(listSessionFiles(options.sessionsDir));
    }
  };

  /** The other logs, one per tick (a timer that never holds the process open). */
  const catchUp = (paths: string[]) => {
    const next = paths.shift();
    if (next === undefined || stopped || db === undefined) return;
    try {
      syncIndex(db, options.sessionsDir, [next]);
    } catch {
      return stop();
    }
    setTimeout(() => catchUp(paths), 0).unref();
  };

  return {
    turnEnded() {
      if (stopped) return;
      running = running.then(() =>
        new Promise<void>((resolve) => setImmediate(resolve)).then(update).catch(stop),
      );
    },
    close: stop,
  };
}

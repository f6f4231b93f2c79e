// Keeps a home's search index up to date while a session runs (docs/search.md): once the session
// opens, every log the index has not seen, one per tick in the background; after each turn, the
// session's own log; so a later search starts from a current index. Only where the index
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
  /** A turn ended: index the session's log. */
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

  /** Opens the index where it exists; the first time, starts the catch-up of unseen logs. */
  const open = async () => {
    if (stopped) return;
    if (db === undefined) {
      if (indexBytes(options.home) === 0) return;
      db = await openIndexDb(options.home);
      if (stopped) return stop();
    }
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

  /** Runs `step` after what is queued, on a later tick; a failure stops the updates. */
  const queue = (step: () => void | Promise<void>) => {
    if (stopped) return;
    running = running.then(() =>
      new Promise<void>((resolve) => setImmediate(resolve)).then(step).catch(stop),
    );
  };

  // The catch-up starts once the session is open, on a timer that never holds the process open.
  setTimeout(() => queue(open), 0).unref();
  return {
    turnEnded() {
      queue(async () => {
        await open();
        if (db !== undefined && !stopped) syncIndex(db, options.sessionsDir, [options.logPath]);
      });
    },
    close: stop,
  };
}

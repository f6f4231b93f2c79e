// The session's background processes for `bash` with `background: true`: ids (bg1, bg2, …),
// incremental reads for `bash_output`, kills for `bash_kill`, and `dispose()` that ends them all
// when the session ends. Processes run through the runner (src/runner/background.ts).
import type { BackgroundCommand, BackgroundScope } from "../../runner/background.ts";
import { createBackgroundScope } from "../../runner/background.ts";
import type { RunResult } from "../../runner/index.ts";

export interface BackgroundJob {
  id: string;
  command: string;
  startedAt: number;
  process: BackgroundCommand;
}

export interface BackgroundRead {
  job: BackgroundJob;
  /** New output since the last read (raw: the caller applies the output policy). */
  bytes: Uint8Array;
  /** Null while the process runs. */
  result: RunResult | null;
}

export interface BackgroundManager {
  start(command: string, cwd: string, env: NodeJS.ProcessEnv): BackgroundJob;
  get(id: string): BackgroundJob | undefined;
  list(): BackgroundJob[];
  read(id: string): Promise<BackgroundRead | undefined>;
  /** Kills the job's process tree and waits for it to exit. */
  kill(id: string): Promise<RunResult | undefined>;
  /** Kills every job and removes their logs; the manager can start new jobs afterwards. */
  dispose(): Promise<void>;
}

export interface BackgroundManagerOptions {
  /** Where the logs go; default the OS temp dir. */
  tmpDir?: string;
  killGraceMs?: number;
}

export function createBackgroundManager(options: BackgroundManagerOptions = {}): BackgroundManager {
  let scope: BackgroundScope = createBackgroundScope(options.tmpDir);
  const jobs = new Map<string, BackgroundJob>();
  let counter = 0;
  return {
    start(command, cwd, env) {
      counter += 1;
      const id = `bg${counter}`;
      const process = scope.start({ command, cwd, env, killGraceMs: options.killGraceMs });
      const job = { id, command, startedAt: Date.now(), process };
      jobs.set(id, job);
      return job;
    },
    get: (id) => jobs.get(id),
    list: () => [...jobs.values()],
    async read(id) {
      const job = jobs.get(id);
      if (!job) return undefined;
      const result = job.process.result;
      const bytes = await job.process.readNew();
      return { job, bytes, result };
    },
    async kill(id) {
      return jobs.get(id)?.process.kill();
    },
    async dispose() {
      const old = scope;
      scope = createBackgroundScope(options.tmpDir);
      jobs.clear();
      await old.dispose();
    },
  };
}

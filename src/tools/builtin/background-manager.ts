// The session's background processes for `bash` with `background: true`: ids (bg1, bg2, …),
// incremental reads for `bash_output`, kills for `bash_kill`, and `dispose()` that ends them all
// when the session ends. Processes run through the runner (src/runner/background.ts), which logs
// their policy-processed output in the session's spill directory.
import type { BackgroundCommand, BackgroundScope } from "../../runner/background.ts";
import { createBackgroundScope } from "../../runner/background.ts";
import type {
  CommandSpec,
  LogWindow,
  OutputPolicy,
  ProxiedConnection,
  RunResult,
  SandboxPolicy,
  SpillScope,
} from "../../runner/index.ts";

export interface BackgroundJob {
  id: string;
  command: string;
  startedAt: number;
  process: BackgroundCommand;
  /**
   * The OS sandbox policy it runs under, the hosts its proxy refused so far, and whether a read
   * has shown what it left (RunResult.nestedRepos, setAside); absent: none.
   */
  sandbox?: { policy: SandboxPolicy; refusedHosts: string[]; nestedShown?: boolean };
}

export interface BackgroundRead {
  job: BackgroundJob;
  /** New output since the last read, already stripped and redacted, bounded by `maxBytes`. */
  window: LogWindow;
  /** Null while the process runs. */
  result: RunResult | null;
}

export interface BackgroundStart {
  command: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** The policy the output is logged under. */
  policy: OutputPolicy;
  /** The OS sandbox it runs in (tools/sandbox-setup.ts); absent: unconfined. */
  sandbox?: CommandSpec["sandbox"];
}

export interface BackgroundManager {
  start(spec: BackgroundStart): Promise<BackgroundJob>;
  get(id: string): BackgroundJob | undefined;
  list(): BackgroundJob[];
  read(id: string, maxBytes: number): Promise<BackgroundRead | undefined>;
  /** Kills the job's process tree and waits for it to exit. */
  kill(id: string): Promise<RunResult | undefined>;
  /** Kills every job and removes their logs; the manager can start new jobs afterwards. */
  dispose(): Promise<void>;
}

export interface BackgroundManagerOptions {
  /** Where the logs go (the session's spill scope); without one, a spill scope of their own. */
  spill?: SpillScope | null;
  killGraceMs?: number;
}

export function createBackgroundManager(options: BackgroundManagerOptions = {}): BackgroundManager {
  const spill = options.spill ?? null;
  let scope: BackgroundScope = createBackgroundScope(spill);
  const jobs = new Map<string, BackgroundJob>();
  let counter = 0;
  return {
    async start(spec) {
      counter += 1;
      const id = `bg${counter}`;
      const grace = options.killGraceMs === undefined ? {} : { killGraceMs: options.killGraceMs };
      const box = spec.sandbox
        ? { policy: spec.sandbox.policy, refusedHosts: [] as string[] }
        : null;
      const sandbox = spec.sandbox && {
        ...spec.sandbox,
        onConnection: (connection: ProxiedConnection) => {
          if (!connection.allowed) box?.refusedHosts.push(connection.host);
          spec.sandbox?.onConnection?.(connection);
        },
      };
      const process = await scope.start({ ...spec, ...grace, ...(sandbox ? { sandbox } : {}) });
      const job = {
        id,
        command: spec.command,
        startedAt: Date.now(),
        process,
        ...(box ? { sandbox: box } : {}),
      };
      jobs.set(id, job);
      return job;
    },
    get: (id) => jobs.get(id),
    list: () => [...jobs.values()],
    async read(id, maxBytes) {
      const job = jobs.get(id);
      if (!job) return undefined;
      const result = job.process.result;
      const window = await job.process.readNew(maxBytes);
      return { job, window, result };
    },
    async kill(id) {
      return jobs.get(id)?.process.kill();
    },
    async dispose() {
      const old = scope;
      scope = createBackgroundScope(spill);
      jobs.clear();
      await old.dispose();
    },
  };
}

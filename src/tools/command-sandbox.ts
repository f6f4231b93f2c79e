// The OS sandbox of one command a tool runs (bash, a `[[tools.external]]` tool, the cgc code
// graph): what its CommandSpec carries, the refusal where no sandbox can run, and, once it ran,
// the receipt, the note telling the model the sandbox refused a write or a unix socket (or that
// the command left a nested repository git would run a program for, or created a file that runs
// on the host), and `sandboxRefused` (the agent then offers to run it again outside:
// agent/sandbox-escalation.ts).
import type { ProxiedConnection, RunResult, SandboxAftermath } from "../runner/index.ts";
import { aftermathNote, sandboxRefusal, socketNames } from "../runner/index.ts";
import type { SessionSandbox } from "./sandbox-setup.ts";
import type { ToolContext, ToolResult } from "./types.ts";

interface CommandSandbox {
  /** Why the command must not run (no sandbox here and the fallback refuses), else null. */
  readonly refusal: string | null;
  /** Spread into the CommandSpec: `{ sandbox }`, or nothing (unconfined). */
  readonly spec: { sandbox?: NonNullable<SessionSandbox["runSpec"]> & { onConnection: OnConn } };
  /** The note for the result's trailer when the sandbox refused a write of the run, else "". */
  note(run: CommandRun): string;
  /** Sets the receipt and, when the sandbox refused the failed run, `sandboxRefused`. */
  mark(result: ToolResult, run: CommandRun): void;
}

type OnConn = (connection: ProxiedConnection) => void;

/** What note and mark read of a run: the runner's result, or an editor terminal's outcome. */
type CommandRun = Pick<RunResult, "output" | "exitCode" | "timedOut" | "cancelled"> &
  SandboxAftermath;

/** The sandbox of one call: the session's, or none when the user allowed running it outside. */
export function commandSandbox(
  session: SessionSandbox | undefined,
  ctx: Pick<ToolContext, "connection" | "outsideSandbox">,
): CommandSandbox {
  const sandbox = ctx.outsideSandbox ? undefined : session;
  const refusedHosts: string[] = [];
  const onConnection: OnConn = (connection) => {
    if (!connection.allowed) refusedHosts.push(connection.host);
    ctx.connection?.(connection);
  };
  let refusedPaths: string[] = [];
  let refusedSockets: string[] = [];
  return {
    refusal: sandbox?.refusal ?? null,
    spec: sandbox?.runSpec ? { sandbox: { ...sandbox.runSpec, onConnection } } : {},
    note(run) {
      const refused = failed(run) ? sandboxRefusal(run.output, sandbox?.policy ?? null) : null;
      refusedPaths = refused?.paths ?? [];
      refusedSockets = refused?.sockets ?? [];
      return (refused ? `\n${refused.note}` : "") + aftermathNote(run);
    },
    mark(result, run) {
      if (sandbox) result.sandbox = sandbox.receipt;
      if (sandbox && run.nestedRepos) {
        result.sandbox = { ...sandbox.receipt, nested_repos: run.nestedRepos };
      }
      if (ctx.outsideSandbox && session) result.sandbox = { mode: "none", network: "on" };
      const why = refusedWhat(refusedPaths, refusedSockets, refusedHosts);
      if (failed(run) && !run.cancelled && why) result.sandboxRefused = why;
    },
  };
}

/** What the sandbox refused, for the escalation ask, or null. */
function refusedWhat(
  paths: readonly string[],
  sockets: readonly string[],
  hosts: readonly string[],
): string | null {
  const parts = [
    ...(paths.length > 0 ? [`writing ${paths.slice(0, 3).join(", ")}`] : []),
    ...(sockets.length > 0 ? [`connecting to ${socketNames(sockets)}`] : []),
    ...(hosts.length > 0 ? [`connecting to ${[...new Set(hosts)].join(", ")}`] : []),
  ];
  return parts.length > 0 ? parts.join(" and ") : null;
}

function failed(run: CommandRun): boolean {
  return run.timedOut || run.cancelled || run.exitCode !== 0;
}

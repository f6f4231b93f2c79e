// The OS sandbox of one session: the `[sandbox]` config resolved against the session's paths
// (workspace, temp dir, HOME, codewhale home), bubblewrap's availability probed once, and what
// happens where it cannot run (the fallback). Built by the agent for the bash tool, external
// tools, `!` commands, hooks and MCP stdio servers, and by `codewhale sandbox`; `runSpec` is what
// a command spec carries (none: run unconfined), `profile` what hooks and MCP servers run under.
import type { Config } from "../config/index.ts";
import { resolveHome } from "../config/index.ts";
import type { BwrapHostOptions, SandboxPolicy } from "../runner/index.ts";
import { describePolicy, probeSandbox, resolveSandboxPolicy } from "../runner/index.ts";
import type { Payload } from "../session/events.ts";

export interface SessionSandbox {
  /** The policy commands run under, or null when they run unconfined (mode off, or fallback off). */
  readonly policy: SandboxPolicy | null;
  /** What a command spec carries: `{ policy, host }`, or undefined (unconfined). */
  readonly runSpec: { policy: SandboxPolicy; host: BwrapHostOptions } | undefined;
  /** Why commands must not run at all (no sandbox here and the fallback refuses), else null. */
  readonly refusal: string | null;
  /** The one notice for the session start and doctor when the sandbox cannot run, else null. */
  readonly notice: string | null;
  /** For notices: `workspace-write, network off` or `no sandbox (…)`. */
  readonly summary: string;
  /** What each command's `tool/result` records (`sandbox`). */
  readonly receipt: SandboxReceipt;
  /**
   * What hooks or MCP stdio servers run under: the same policy with the network on (`run`),
   * `refusal` when they must not start (no sandbox here and the fallback refuses), or neither
   * (unconfined: mode off, fallback off, or `[sandbox] hooks`/`mcp_servers = "outside"`).
   */
  profile(kind: "hooks" | "mcp_servers"): SandboxProfile;
}

/** A sandboxed run without a proxy: the policy and the host's bwrap options. */
type ConfinedRun = { policy: SandboxPolicy; host: BwrapHostOptions };

export interface SandboxProfile {
  run?: ConfinedRun;
  refusal?: string;
}

type SandboxReceipt = NonNullable<Payload<"tool/result">["sandbox"]>;

const UNCONFINED: SandboxReceipt = { mode: "none", network: "on" };

interface SandboxSetupOptions {
  section: Config["sandbox"];
  workspace: string;
  env: NodeJS.ProcessEnv;
  tempDir?: string;
  /** The session logs' directory (hidden from commands). */
  sessionsDir?: string;
  /** The workspace files configured commands run (read-only to commands). */
  runFiles?: readonly string[];
}

/** The paths a session's policy is resolved against. */
function pathsOf(options: SandboxSetupOptions) {
  return {
    workspace: options.workspace,
    home: options.env.HOME || "/nonexistent",
    codewhaleHome: resolveHome(options.env),
    ...(options.tempDir ? { tempDir: options.tempDir } : {}),
    ...(options.sessionsDir ? { sessionsDir: options.sessionsDir } : {}),
    ...(options.runFiles ? { runFiles: options.runFiles } : {}),
  };
}

/** The policy of `[sandbox]` for this workspace without probing bwrap (`sandbox --seatbelt`). */
export function sessionPolicy(options: SandboxSetupOptions): SandboxPolicy | null {
  return resolveSandboxPolicy(options.section, pathsOf(options));
}

/**
 * Starts bubblewrap's probe (once per process) without waiting for it, so it runs while the
 * session is being composed and the first request is not delayed by it; `setupSandbox` then
 * finds it done.
 */
export function warmSandbox(section: Config["sandbox"]): void {
  if (section.mode !== "off") void probeSandbox();
}

export async function setupSandbox(options: SandboxSetupOptions): Promise<SessionSandbox> {
  const { section } = options;
  const paths = pathsOf(options);
  const policy = resolveSandboxPolicy(section, paths);
  if (!policy) return unconfined("no sandbox (sandbox.mode = off)", null, null);
  const probe = await probeSandbox();
  if (probe.available) {
    const host = { unshareUser: probe.unshareUser };
    const networked = resolveSandboxPolicy({ ...section, network: "on" }, paths, "host");
    return {
      policy,
      runSpec: { policy, host },
      refusal: null,
      notice: null,
      summary: describePolicy(policy),
      receipt: {
        mode: policy.mode,
        network: policy.network,
        ...(policy.allow.length > 0 ? { allow: policy.allow } : {}),
        policy_hash: policy.hash,
      },
      profile: (kind) =>
        section[kind] === "outside" || !networked ? {} : { run: { policy: networked, host } },
    };
  }
  if (section.fallback === "off") {
    const notice = `the OS sandbox cannot run here (${probe.reason}); commands run unconfined (sandbox.fallback = off)`;
    return unconfined("no sandbox (unavailable; sandbox.fallback = off)", null, notice);
  }
  const refusal = `the OS sandbox cannot run here (${probe.reason}) and sandbox.fallback = ${section.fallback}: commands are refused; install bubblewrap, or set sandbox.fallback = "off" or --sandbox off to run them unconfined`;
  const refused = unconfined("no sandbox (unavailable; commands refused)", refusal, refusal);
  return {
    ...refused,
    profile: (kind) => (section[kind] === "outside" ? {} : { refusal }),
  };
}

function unconfined(
  summary: string,
  refusal: string | null,
  notice: string | null,
): SessionSandbox {
  return {
    policy: null,
    runSpec: undefined,
    refusal,
    notice,
    summary,
    receipt: UNCONFINED,
    profile: () => ({}),
  };
}

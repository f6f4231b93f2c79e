// What decides a session's tool calls, set up once when it opens: the effective policy (the
// loaded config, already cut by project trust, and the `--permission-mode`, `--allow` flags),
// the compiled permission rules with "allow for this session" grants, the permission context
// (with the session's spill directory), the session's asks (pending-asks.ts: an `ask` becomes
// `agent/ask` on the bus) and the session's hooks with a credential-free environment.
// Built by compose-session.ts; read by the loop.
import { homedir } from "node:os";
import type { Env, LoadedConfig, PermissionMode } from "../config/index.ts";
import { HOOK_EVENTS } from "../config/index.ts";
import type { EffectivePolicy, HookSandbox, SessionHooks } from "../hooks/index.ts";
import {
  createSessionHooks,
  effectivePolicy,
  hookEnvironment,
  providerKeyVars,
} from "../hooks/index.ts";
import type { PermissionContext, PermissionPolicy, RunTarget } from "../permissions/index.ts";
import { compilePolicy, runTargets, withGrant } from "../permissions/index.ts";
import { outputPolicyFor } from "../runner/index.ts";
import type { AgentBus } from "./bus-events.ts";
import { type AskSession, PendingAsks } from "./pending-asks.ts";

/** The surface's say in the policy: the one-run flags (asks are answered on the bus). */
export interface GuardOptions {
  /** `--permission-mode`: overrides every file. */
  mode?: PermissionMode;
  /** `--allow`: rules added to the allow list. */
  allow?: readonly string[];
}

/** The policy part, computed before the session log opens (a malformed rule is a ConfigError). */
export interface PreparedPolicy {
  policy: EffectivePolicy;
  permissions: PermissionPolicy;
  context: PermissionContext;
}

export function preparePolicy(
  loaded: LoadedConfig,
  cwd: string,
  options: GuardOptions,
): PreparedPolicy {
  const policy = effectivePolicy(loaded, {
    ...(options.mode ? { mode: options.mode } : {}),
    ...(options.allow ? { allow: options.allow } : {}),
  });
  const permissions = compilePolicy(policy.permissions);
  const context: PermissionContext = {
    workspaceRoot: policy.workspaceRoot,
    cwd,
    home: homedir(),
    configHome: loaded.home,
    // From the user file only (a project file may set neither), on and off the built-in list.
    protect: loaded.config.protected_paths,
    unprotect: loaded.config.permissions.unprotect,
    runs: configuredRuns(loaded, policy, cwd),
  };
  return { policy, permissions, context };
}

/**
 * The workspace files the session's configured commands run (hooks in effect, external tools,
 * MCP servers, git's core.hooksPath): writing one asks, as the command would run it unseen.
 */
function configuredRuns(loaded: LoadedConfig, policy: EffectivePolicy, cwd: string): RunTarget[] {
  const shell = HOOK_EVENTS.flatMap((event) =>
    policy.hooks[event].map((hook) => ({ command: hook.command, by: `the ${event} hook` })),
  );
  const tools = policy.externalTools.map((tool) => ({
    argv: tool.command,
    by: `the external tool "${tool.name}"`,
  }));
  const servers = Object.entries(loaded.config.mcp_servers).flatMap(([name, server]) =>
    server.command === undefined || !server.enabled
      ? []
      : [
          {
            argv: [server.command, ...server.args],
            by: `the MCP server "${name}"`,
            ...(server.cwd ? { cwd: server.cwd } : {}),
          },
        ],
  );
  // As homedir() reads HOME: where git itself looks for the user's config.
  const xdg = process.env.XDG_CONFIG_HOME;
  return runTargets({
    workspaceRoot: policy.workspaceRoot,
    cwd,
    home: homedir(),
    ...(xdg ? { xdgConfigHome: xdg } : {}),
    shell,
    argv: [...tools, ...servers],
  });
}

export class SessionGuard implements AskSession {
  /** The rules in effect; grows with each "allow for this session". */
  permissions: PermissionPolicy;
  readonly context: PermissionContext;
  /** The calls waiting for a surface's answer; they grant to this guard. */
  readonly asks: PendingAsks;
  readonly hooks: SessionHooks;
  readonly bus: AgentBus;
  readonly sessionId: string;
  /** The running turn's signal: hooks started during a turn are killed when it is cancelled. */
  turnSignal: AbortSignal | undefined;
  private readonly session = new AbortController();

  constructor(
    prepared: PreparedPolicy,
    session: { sessionId: string; logPath: string; cwd: string; spillDir?: string },
    options: { env: Env; loaded: LoadedConfig; bus: AgentBus; sandbox?: HookSandbox },
  ) {
    this.permissions = prepared.permissions;
    const spill = session.spillDir === undefined ? {} : { spillDir: session.spillDir };
    this.context = { ...prepared.context, ...spill };
    this.bus = options.bus;
    this.sessionId = session.sessionId;
    this.asks = new PendingAsks(this);
    const env = hookEnvironment(options.env, {
      providerKeyVars: providerKeyVars(options.loaded.config.providers),
      projectDir: prepared.policy.workspaceRoot,
    });
    const guard = this;
    const hookSession = {
      sessionId: session.sessionId,
      transcriptPath: session.logPath,
      cwd: session.cwd,
      // Read as each hook starts: the mode now (Shift+Tab, set_mode, an approved plan).
      get permissionMode() {
        return guard.permissions.mode;
      },
    };
    this.hooks = createSessionHooks(prepared.policy.hooks, {
      session: hookSession,
      env,
      // What a hook says to the model goes through the same output policy as tool output.
      output: outputPolicyFor(options.loaded.config.output),
      ...(options.sandbox ? { sandbox: options.sandbox } : {}),
      // Read when each hook starts: the running turn's signal, else the session's.
      get signal() {
        return guard.turnSignal ?? guard.session.signal;
      },
    });
  }

  /** Adds an allow rule for the rest of the session (the narrowest rule for an allowed call). */
  grant(rule: string): void {
    this.permissions = withGrant(this.permissions, rule);
  }

  /** Denies the asks still waiting and kills hooks still running; the session closes. */
  dispose(): void {
    this.asks.endAll("the session closed before the call was answered");
    this.session.abort();
  }
}

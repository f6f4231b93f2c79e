// The small context every built-in tool factory takes: the workspace, the per-tool output
// policy, the session's spill scope, the environment, the background-process manager and the
// read gate (which files the permission rules keep every reading tool away from), the file
// access of read, write and edit (the disk, or an editor's buffers) and, when a surface runs
// commands itself (an ACP editor's terminals), its terminal host for bash.
// The agent builds one per session (createToolContext) and disposes it when the session ends.
import type {
  KnownSecrets,
  OutputConfigSection,
  OutputPolicy,
  SpillScope,
} from "../../runner/index.ts";
import { outputPolicyFor } from "../../runner/index.ts";
import type { SessionSandbox } from "../sandbox-setup.ts";
import type { BackgroundManager } from "./background-manager.ts";
import { createBackgroundManager } from "./background-manager.ts";
import type { TerminalHost } from "./bash-terminal.ts";
import { type FileAccess, LOCAL_FILES } from "./file-access.ts";

export interface BuiltinToolContext {
  /** The workspace root: every path resolves inside it. */
  cwd: string;
  /** The effective output policy of one tool (`output` with its per-tool overrides). */
  policy(toolName: string): OutputPolicy;
  /** The session's spill scope; `read` and `grep` may also read inside its directory. */
  spill: SpillScope | null;
  env: NodeJS.ProcessEnv;
  background: BackgroundManager;
  /** The bash tool's timeouts: default 2 min, the model may ask for up to `maxMs`. */
  bashTimeout: { defaultMs: number; maxMs: number };
  /** What reading tools may not read or list (see read-gate.ts); default: nothing. */
  readGate: ReadGate;
  /** How read, write and edit reach file text (file-access.ts); default: the local disk. */
  files: FileAccess;
  /** Where bash runs a foreground command instead of the local runner (bash-terminal.ts). */
  terminal?: TerminalHost;
  /** The OS sandbox bash runs its commands in (sandbox-setup.ts); absent: unconfined. */
  sandbox?: SessionSandbox;
  /**
   * Hosts web_fetch may reach on loopback, private or link-local addresses: those an allow
   * rule names exactly (permissions' privateHostsFor); absent: none.
   */
  privateHosts?: (host: string) => boolean;
  /**
   * True when a bash command changes no file, run where `place` says (the permission layer's
   * reading of it, wired by the agent); a promise while what it reads with loads. Absent: every
   * command may change files, so each takes a checkpoint.
   */
  changesNoFile?: (command: string, place: CommandPlace) => boolean | Promise<boolean>;
}

/** Where a bash command runs, for `changesNoFile`. */
interface CommandPlace {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Directories the command may write besides the workspace and the temp dirs. */
  writable: readonly string[];
}

/**
 * The permission rules' say over what a reading tool returns, built by the agent from the deny
 * and ask rules: a file a rule covers is neither read nor listed, by any reading tool.
 */
export interface ReadGate {
  /** False when no rule can cover any path: the tools skip the checks. */
  readonly active: boolean;
  /**
   * True when a deny or ask rule covers `tool` reading the absolute path `absolute`. `resolved`:
   * where it really leads, when the caller knows (a walk that follows no symlink: the path
   * itself), so it is not resolved again.
   */
  blocks(tool: string, absolute: string, resolved?: string): boolean;
}

/** The gate of a session without read rules. */
export const OPEN_READ_GATE: ReadGate = { active: false, blocks: () => false };

export interface ToolContextOptions {
  cwd: string;
  output: OutputConfigSection;
  spill: SpillScope | null;
  env?: NodeJS.ProcessEnv;
  bashTimeout?: Partial<BuiltinToolContext["bashTimeout"]>;
  readGate?: ReadGate;
  /** Credential values every tool's output is redacted of (knownSecretsFrom in runner/). */
  knownSecrets?: KnownSecrets;
  files?: FileAccess;
  terminal?: TerminalHost;
  sandbox?: SessionSandbox;
  privateHosts?: (host: string) => boolean;
  changesNoFile?: BuiltinToolContext["changesNoFile"];
}

export const DEFAULT_BASH_TIMEOUT_MS = 120_000;
export const DEFAULT_BASH_MAX_TIMEOUT_MS = 600_000;

export function createToolContext(options: ToolContextOptions): BuiltinToolContext {
  const env = options.env ?? process.env;
  return {
    cwd: options.cwd,
    policy: (toolName) => {
      const policy = outputPolicyFor(options.output, toolName);
      return options.knownSecrets ? { ...policy, knownSecrets: options.knownSecrets } : policy;
    },
    spill: options.spill,
    env,
    background: createBackgroundManager({ spill: options.spill }),
    bashTimeout: {
      defaultMs: options.bashTimeout?.defaultMs ?? DEFAULT_BASH_TIMEOUT_MS,
      maxMs: options.bashTimeout?.maxMs ?? DEFAULT_BASH_MAX_TIMEOUT_MS,
    },
    readGate: options.readGate ?? OPEN_READ_GATE,
    files: options.files ?? LOCAL_FILES,
    ...(options.terminal ? { terminal: options.terminal } : {}),
    ...(options.sandbox ? { sandbox: options.sandbox } : {}),
    ...(options.privateHosts ? { privateHosts: options.privateHosts } : {}),
    ...(options.changesNoFile ? { changesNoFile: options.changesNoFile } : {}),
  };
}

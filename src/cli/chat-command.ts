// `codewhale chat [prompt]` (also `codewhale` alone, and `codewhale "<prompt>"`): an interactive
// session in the terminal. Only in a TTY: otherwise one line points at `codewhale exec`
// (exit 2). Loads the config (its errors, trust and the model's provider and key are checked
// before any frame), then the terminal UI (src/tui/, built as dist/tui.cjs); the engine
// (chat-agent.ts, dist/chat-agent.cjs) after it, both with dynamic imports, so no other command
// pays for them. A new session opens once its first frame is drawn; a resumed one before, its
// transcript being that frame. Registered by chat-main.ts and main.ts, on the process's own
// terminal (the tests of test/tui/ also on an in-process virtual one).
import type { Command } from "commander";
import { type Agent, resolveModel } from "../agent/index.ts";
import {
  addAllowRule,
  allowRuleTargets,
  changedGrantPaths,
  configFlagsFromOptions,
  EFFORT_LEVELS,
  expandModelAlias,
  loadConfig,
  loadSkillFiles,
  PERMISSION_MODES,
  sessionsDir,
} from "../config/index.ts";
import { UsageError } from "../errors.ts";
import { providerKeyVars, withoutCredentials } from "../hooks/index.ts";
import { ToolPresentations } from "../present/tool-presentations.ts";
import { modelInfo } from "../providers/index.ts";
import { knownSecretsFrom, redactText } from "../runner/index.ts";
import { FiguresFold } from "../session/figures.ts";
import { newSessionId } from "../session/paths.ts";
import type {
  InteractiveOptions,
  OpenRequest,
  SessionCommands,
  SessionHeader,
} from "../tui/index.ts";
import { VERSION } from "../version.ts";
import type { ChatEngine, ChatOpenRequest } from "./chat-agent.ts";
import { type TakenCredentials, takeCredentials } from "./credential-scrub.ts";
import { cwdOption } from "./cwd-option.ts";
import { collect, effortLevel, permissionMode } from "./flag-values.ts";
import { localModelFallback } from "./local-models.ts";

interface ChatOptions {
  model?: string;
  effort?: string;
  cwd?: string;
  resume?: string;
  continue?: boolean;
  sessionDir?: string;
  permissionMode?: string;
  sandbox?: string;
  allow: string[];
  trust?: boolean;
}

export const NOT_A_TERMINAL =
  'an interactive session needs a terminal; for scripts and pipes use codewhale exec "<prompt>"';

/** What a chat runs on: the process's own terminal and environment unless told otherwise. */
interface ChatHost {
  env: NodeJS.ProcessEnv;
  /** Whether there is a terminal to draw on. */
  isTerminal(): boolean;
  /** The terminal the session is drawn on (default: the process's). */
  terminal?: InteractiveOptions["terminal"];
  /** Takes the provider keys out of the environment children inherit (credential-scrub.ts). */
  takeCredentials(names: readonly string[]): TakenCredentials;
  /** Receives the exit code when the user leaves. */
  exit(code: number): void;
}

const processHost: ChatHost = {
  env: process.env,
  isTerminal: () => Boolean(process.stdin.isTTY && process.stdout.isTTY),
  takeCredentials,
  exit: (code) => {
    process.exitCode = code;
  },
};

export function registerChatCommand(program: Command, host: ChatHost = processHost): void {
  program
    .command("chat")
    .description("an interactive session in this terminal (the default command)")
    .argument("[prompt]", "the first prompt")
    .option("-m, --model <provider/model>", "model to use (config `model`)")
    .option("--effort <level>", `${EFFORT_LEVELS.join(", ")} (config thinking.effort)`)
    .option("--cwd <dir>", "the workspace to work in (default: the current directory)")
    .option("--resume <id>", "continue a session by id or unique prefix")
    .option("--continue", "continue the newest session started in this directory")
    .option("--session-dir <dir>", "where session logs live (default $CODEWHALE_HOME/sessions)")
    .option("--permission-mode <mode>", `${PERMISSION_MODES.join(", ")} (config permissions.mode)`)
    .option("--sandbox <mode>", "workspace-write, read-only or off (config `sandbox.mode`)")
    .option("--allow <rule>", "also allow calls matching this rule", collect, [])
    .option("--trust", "trust this project's config for this session")
    .action(async (prompt: string | undefined, options: ChatOptions) => {
      host.exit(await runChat(prompt, options, host));
    });
}

async function runChat(
  prompt: string | undefined,
  given: ChatOptions,
  host: ChatHost,
): Promise<number> {
  // `--model sonnet` as Claude Code reads it (config/model-alias.ts).
  const options = given.model ? { ...given, model: expandModelAlias(given.model) } : given;
  if (!host.isTerminal()) throw new UsageError(NOT_A_TERMINAL);
  if (options.resume !== undefined && options.resume.trim() === "")
    throw new UsageError("--resume needs a session id or prefix");
  if (options.resume && options.continue)
    throw new UsageError("use --resume or --continue, not both");
  const flagMode = permissionMode(options.permissionMode);
  const effort = effortLevel(options.effort);
  const cwd = cwdOption(options.cwd);
  const loaded = loadConfig({
    cwd,
    env: host.env,
    flags: configFlagsFromOptions({ ...options, ...(effort ? { effort } : {}) }),
    ...(options.trust ? { trust: true } : {}),
  });
  const resuming = options.resume !== undefined || options.continue === true;
  // No model named and no key for the default one: a local server's model, when one answers.
  const local = resuming || options.model ? null : await localModelFallback(loaded, host.env);
  const model = local?.model ?? options.model;
  const keyVars = providerKeyVars(loaded.config.providers);
  const credentials = host.takeCredentials(keyVars);
  // On first use, after the first frame: the key file is read when the session opens.
  let known: ReturnType<typeof knownSecretsFrom> | undefined;
  const secrets = () => {
    known ??= knownSecretsFrom(credentials.env, keyVars);
    return known;
  };
  const dir = sessionsDir(loaded, options.sessionDir);
  const project = loaded.projectRoot ?? cwd;
  let engine: ChatEngine | undefined;
  const open = async (request: ChatOpenRequest) => {
    if (!engine) {
      const { chatEngine } = await import("./chat-agent.ts");
      engine ??= chatEngine({
        loaded,
        env: credentials.env,
        cwd,
        sessionsDir: dir,
        project,
        allow: options.allow,
      });
    }
    return engine.open(request);
  };
  const mode = flagMode ?? loaded.config.permissions.mode;
  const first = {
    ...(model ? { model } : {}),
    ...(effort ? { effort } : {}),
    ...(flagMode ? { mode: flagMode } : {}),
  };
  const agent = resuming
    ? await open({
        ...first,
        ...(options.resume ? { resume: options.resume } : {}),
        ...(options.continue ? { continueLatest: true } : {}),
      })
    : newSession(model ?? loaded.config.model, credentials.env, loaded.config, (id) =>
        open({ ...first, sessionId: id }),
      );
  const statusLine = loaded.config.display.status_line;
  const { runInteractive } = await import("../tui/index.ts");
  return runInteractive({
    agent,
    open: (request: OpenRequest) => open(request),
    views: {
      presentations: (session) => new ToolPresentations(session),
      figures: () => new FiguresFold(),
      modes: PERMISSION_MODES,
      efforts: EFFORT_LEVELS,
      redact: (text) => redactText(text, secrets()),
      sessions: openedSessions(() => engine),
      rules: { targets: allowRuleTargets(loaded), add: addAllowRule },
      outputPrice: (provider, model) =>
        modelInfo(model, { provider, overrides: loaded.config.models })?.price?.output ?? null,
      // Only with a session open, whose engine (loaded after the first frame) asks them.
      models: async () => (engine ? engine.models() : []),
      skills: () =>
        loadSkillFiles({
          home: loaded.home,
          userHome: host.env.HOME,
          project,
          projectTrusted: loaded.trust.state === "trusted" || loaded.trust.state === "flag",
          changed: changedGrantPaths(loaded),
        }),
      contextWindow: (provider, model) =>
        modelInfo(model, { provider, overrides: loaded.config.models })?.contextWindow ?? null,
    },
    ...(statusLine
      ? {
          statusCommand: {
            command: statusLine,
            env: withoutCredentials(host.env, keyVars),
            version: VERSION,
          },
        }
      : {}),
    cwd,
    home: loaded.home,
    project,
    mode,
    showThinking: loaded.config.display.show_thinking,
    notifications: loaded.config.display.notifications,
    idlePromptMs: loaded.config.display.idle_prompt_ms,
    theme: loaded.config.display.theme,
    editorMode: loaded.config.display.editor_mode,
    env: host.env,
    ...(host.terminal ? { terminal: host.terminal } : {}),
    ...(prompt ? { firstPrompt: prompt } : {}),
    ...(local ? { notices: [local.notice.replace(/^codewhale: /, "")] } : {}),
  });
}

/**
 * The stored-session slash commands, served by the engine: the terminal runs them only on an
 * open session, so the engine that opened it is there.
 */
function openedSessions(engine: () => ChatEngine | undefined): SessionCommands {
  const commands = () => {
    const loaded = engine();
    if (!loaded) throw new Error("session commands before the session is open");
    return loaded.sessions;
  };
  return {
    list: () => commands().list(),
    pickable: () => commands().pickable(),
    stats: (logPath) => commands().stats(logPath),
    verify: (logPath) => commands().verify(logPath),
    exportTo: (logPath, format, output) => commands().exportTo(logPath, format, output),
    childEvents: (sessionId) => commands().childEvents(sessionId),
    openSearch: () => commands().openSearch(),
    searchSessions: (query) => commands().searchSessions(query),
    searchMatches: (query, exceptSession) => commands().searchMatches(query, exceptSession),
  };
}

/**
 * A new session, shown before it is open: its id is made here, and its model resolved (an unknown provider or a missing key fails now,
 * before the TUI's first frame, exit 2).
 */
function newSession(
  modelId: string,
  env: NodeJS.ProcessEnv,
  config: Parameters<typeof resolveModel>[0],
  open: (sessionId: string) => Promise<Agent>,
): { header: SessionHeader; open: () => Promise<Agent> } {
  const { provider, model } = resolveModel(config, modelId, env);
  const sessionId = newSessionId();
  return { header: { sessionId, provider: provider.name, model }, open: () => open(sessionId) };
}

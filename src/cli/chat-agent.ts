// The interactive session's engine, loaded after its first frame: opens the Agent (the session
// log, tools, hooks, signing key) and serves the stored-session slash commands. chat-command.ts
// imports it dynamically; the build makes it its own bundle, dist/chat-agent.cjs, so an
// interactive start parses none of it before the frame (dist/chat.cjs is that start's entry).
import type { BusEvents, Receipts } from "../agent/index.ts";
import { Agent } from "../agent/index.ts";
import { createBus } from "../bus/bus.ts";
import type { LoadedConfig, PermissionMode } from "../config/index.ts";
import type { Effort } from "../session/events.ts";
import type { SessionCommands } from "../tui/index.ts";
import { chatSessions } from "./chat-sessions.ts";
import { modelChoices } from "./models-command.ts";
import { execReceipts } from "./receipts.ts";

/** What the chat command settled before the first frame. */
export interface ChatContext {
  loaded: LoadedConfig;
  /** The environment with the provider keys, which children do not inherit. */
  env: NodeJS.ProcessEnv;
  cwd: string;
  sessionsDir: string;
  project: string;
  /** `--allow` rules. */
  allow: string[];
}

export interface ChatOpenRequest {
  resume?: string;
  model?: string;
  /** `--effort`: on resume it switches the session's effort. */
  effort?: Effort;
  mode?: PermissionMode;
  continueLatest?: boolean;
  sessionId?: string;
}

export interface ChatEngine {
  open(request: ChatOpenRequest): Promise<Agent>;
  sessions: SessionCommands;
  /** The models the configured providers list (`/model`). */
  models(): Promise<{ value: string; label: string; description: string }[]>;
}

export function chatEngine(context: ChatContext): ChatEngine {
  // On first use: the key file is read (or created) when the first session opens.
  let receipts: Receipts | undefined;
  return {
    models: () => modelChoices(context.loaded.config, context.env),
    open: (request) => {
      receipts ??= execReceipts();
      return Agent.open({
        bus: createBus<BusEvents>(),
        loaded: context.loaded,
        env: context.env,
        cwd: context.cwd,
        sessionsDir: context.sessionsDir,
        ...(request.model ? { modelOverride: request.model } : {}),
        ...(request.effort ? { effortOverride: request.effort } : {}),
        ...(request.resume ? { resume: request.resume } : {}),
        ...(request.continueLatest ? { continueLatest: true } : {}),
        ...(request.sessionId ? { sessionId: request.sessionId } : {}),
        receipts,
        guard: { ...(request.mode ? { mode: request.mode } : {}), allow: context.allow },
      });
    },
    sessions: chatSessions({
      home: context.loaded.home,
      cwd: context.cwd,
      sessionsDir: context.sessionsDir,
      project: context.project,
    }),
  };
}

// The interactive terminal's entry: `runInteractive` puts a session on a pi-tui screen (app.ts)
// in the terminal's scrollback, guards the terminal (terminal-restore.ts) and resolves with the
// exit code when the user leaves. A new session's first frame is drawn before it is opened.
// Loaded only by src/cli/chat-command.ts, with a dynamic import that the build turns into the
// separate bundle dist/tui.cjs.
import { ProcessTerminal, type Terminal, TUI } from "@mariozechner/pi-tui";
import type { Agent } from "../agent/index.ts";
import type { NotificationChannel, PermissionMode } from "../config/index.ts";
import { ExitCode } from "../errors.ts";
import { App, type OpenRequest, type SessionHeader, type SessionViews } from "./app.ts";
import { PromptHistory } from "./history.ts";
import { installKeybindings } from "./keybindings.ts";
import { keybindingsNotice, readKeybindingsFile } from "./keybindings-file.ts";
import { Notifier } from "./notifier.ts";
import { paceRendering } from "./render-pace.ts";
import { guardTerminal } from "./terminal-restore.ts";
import { colorWanted, createTheme, type ThemeName } from "./theme.ts";

export type { OpenRequest, SessionHeader, SessionViews } from "./app.ts";
export type { SessionCommands } from "./session-commands.ts";

/** A new session: drawn from its header, opened (`open`) once the first frame is on screen. */
export interface PendingSession {
  header: SessionHeader;
  open(): Promise<Agent>;
}

export interface InteractiveOptions {
  /** An open session (a resumed one, whose transcript is the first frame), or a new one. */
  agent: Agent | PendingSession;
  open: (request: OpenRequest) => Promise<Agent>;
  views: SessionViews;
  cwd: string;
  /** `$CODEWHALE_HOME`: the prompt history lives there. */
  home: string;
  /** The project the prompts belong to (its root, else the workspace). */
  project: string;
  mode: PermissionMode;
  showThinking: boolean;
  firstPrompt?: string;
  env?: NodeJS.ProcessEnv;
  /** A virtual terminal in tests; the process's own by default. */
  terminal?: Terminal;
  /** `[display] notifications` (notifier.ts); off when not given. */
  notifications?: NotificationChannel;
  /** `[display] theme` (palettes.ts); `auto` when not given. */
  theme?: ThemeName;
  /** `[display] editor_mode`: `vim` starts the editor with vim's modes (vim-mode.ts). */
  editorMode?: "default" | "vim";
  /** `[display] status_line` (status-command.ts). */
  statusCommand?: { command: string; env: NodeJS.ProcessEnv; version: string };
  /** `[display] idle_prompt_ms` (idle-prompt.ts); never when not given. */
  idlePromptMs?: number;
  /** Lines for the transcript's start (the local server taken for a missing key). */
  notices?: readonly string[];
}

/**
 * Resolves after the next turn of the event loop has read and drawn what was typed already:
 * its poll phase reads the terminal, the key's frame is an immediate of that turn (render-pace),
 * and this resolves in the turn after.
 */
function afterTypedKeys(): Promise<void> {
  return new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
}

export async function runInteractive(options: InteractiveOptions): Promise<number> {
  const keys = readKeybindingsFile(options.home);
  installKeybindings(keys);
  const notice = keybindingsNotice(keys);
  const theme = createTheme(colorWanted(options.env ?? process.env), options.theme);
  const terminal = options.terminal ?? new ProcessTerminal();
  const tui = new TUI(terminal);
  const notifier = new Notifier(
    (data) => terminal.write(data),
    options.notifications ?? "off",
    options.env ?? process.env,
  );
  const pace = paceRendering(tui, terminal);
  const pending = "header" in options.agent ? options.agent : undefined;
  const opened = pending ? undefined : (options.agent as Agent);
  let app: App | undefined;
  const guard = guardTerminal({
    stopScreen: () => {
      notifier.stop();
      tui.stop();
    },
    abandon: () => (app?.currentAgent ?? opened)?.dispose(),
    write: (line) => process.stderr.write(`${line}\n`),
    exit: (code) => process.exit(code),
  });
  let failed: { error: unknown } | undefined;
  try {
    let leave: () => void = () => undefined;
    const left = new Promise<void>((resolve) => {
      leave = resolve;
      const history = new PromptHistory({
        home: options.home,
        project: options.project,
        redact: options.views.redact,
      });
      const header = pending ? { header: pending.header } : {};
      app = new App({
        ...options,
        agent: opened,
        ...header,
        tui,
        theme,
        history,
        notifier,
        notices: [...(options.notices ?? []), ...(notice ? [notice] : [])],
        onExit: resolve,
      });
    });
    tui.start();
    notifier.start();
    app?.start(options.firstPrompt);
    pace.drawNow();
    // The first frame is on the terminal: now the session opens (its log, tools, hooks), once
    // the keys typed before it are in the editor and drawn.
    let leaving = false;
    const opening = (pending ? afterTypedKeys().then(() => pending.open()) : undefined)?.then(
      (agent) => {
        if (!leaving) app?.adopt(agent);
        return agent;
      },
      (error: unknown) => {
        failed = { error };
        leave();
        return undefined;
      },
    );
    await left;
    leaving = true;
    app?.dispose();
    guard.restore();
    if (failed) throw failed.error;
    // Left while the session was still opening: it is closed once open (its lock, its hooks).
    await (app?.currentAgent ?? (await opening))?.close();
    return ExitCode.ok;
  } finally {
    guard.restore();
    guard.dispose();
  }
}

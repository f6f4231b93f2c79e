// The interactive terminal's entry: `runInteractive` puts an opened agent on a pi-tui screen
// (app.ts) in the terminal's scrollback, guards the terminal (terminal-restore.ts) and resolves
// with the exit code when the user leaves. Loaded only by src/cli/chat-command.ts, with a
// dynamic import that the build turns into the separate bundle dist/tui.cjs.
import { ProcessTerminal, type Terminal, TUI } from "@mariozechner/pi-tui";
import type { Agent } from "../agent/agent.ts";
import type { PermissionMode } from "../config/index.ts";
import { ExitCode } from "../errors.ts";
import { App, type OpenRequest, type SessionViews } from "./app.ts";
import { PromptHistory } from "./history.ts";
import { paceRendering } from "./render-pace.ts";
import { guardTerminal } from "./terminal-restore.ts";
import { colorWanted, createTheme } from "./theme.ts";

export type { OpenRequest, SessionViews } from "./app.ts";
export type { SessionCommands } from "./session-commands.ts";

export interface InteractiveOptions {
  agent: Agent;
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
}

export async function runInteractive(options: InteractiveOptions): Promise<number> {
  const theme = createTheme(colorWanted(options.env ?? process.env));
  const terminal = options.terminal ?? new ProcessTerminal();
  const tui = new TUI(terminal);
  paceRendering(tui, terminal);
  let app: App | undefined;
  const guard = guardTerminal({
    stopScreen: () => tui.stop(),
    abandon: () => (app?.currentAgent ?? options.agent).dispose(),
    write: (line) => process.stderr.write(`${line}\n`),
    exit: (code) => process.exit(code),
  });
  try {
    const left = new Promise<void>((resolve) => {
      const history = new PromptHistory({
        home: options.home,
        project: options.project,
        redact: options.views.redact,
      });
      app = new App({ ...options, tui, theme, history, onExit: resolve });
    });
    tui.start();
    app?.start(options.firstPrompt);
    await left;
    app?.dispose();
    guard.restore();
    await app?.currentAgent.close();
    return ExitCode.ok;
  } finally {
    guard.restore();
    guard.dispose();
  }
}

// The interactive terminal in-process, for the test/tui/ tests that need no real terminal:
// `codewhale chat <args>` (the chat command as registered, on src/) drawn on an xterm screen
// (xterm-terminal.ts) against a loopback mock provider, waiting at the prompt. When the session
// ends, the screen shows `EXITED <code>` as tmux.ts's shell does, after the error line if any.
// Raw mode, resize, signals, the tty's restore and pastes are tested under tmux (tui-session.ts).
import { Writable } from "node:stream";
import type { TestContext } from "node:test";
import { Command } from "commander";
import { registerChatCommand } from "../../src/cli/chat-command.ts";
import { reportError } from "../../src/cli/fail.ts";
import type { MockProvider } from "./mock-provider/index.ts";
import { startMockProvider } from "./mock-provider/index.ts";
import type { ExecEnv } from "./provider-env.ts";
import { execEnv } from "./provider-env.ts";
import { MODEL, prependTopToml, type StartOptions } from "./tui-helpers.ts";
import { type XtermTerminal, xtermTerminal } from "./xterm-terminal.ts";

export interface VirtualScreen extends Pick<XtermTerminal, "type" | "keys" | "screen" | "raw"> {
  /** Polls until the screen matches; throws with the last screen after `timeoutMs`. */
  waitFor(expected: string | RegExp, timeoutMs?: number): Promise<string>;
}

export * from "./tui-helpers.ts";

export interface VirtualStarted {
  screen: VirtualScreen;
  setup: ExecEnv;
  mock: MockProvider;
  /** The exit code once the user left (the CLI's, an error's included). */
  exited: Promise<number>;
}

/** A mock provider, a temp home and workspace, and `codewhale <args>` in-process at the prompt. */
export async function startVirtual(
  t: TestContext,
  args: string[] = [],
  options: Omit<StartOptions, "record"> = {},
): Promise<VirtualStarted> {
  const mock = options.mock ?? (await startMockProvider());
  const setup = options.setup ?? execEnv(mock, options.toml);
  if (options.topToml) prependTopToml(setup.home, options.topToml);
  const terminal = xtermTerminal(options.columns ?? 100, options.rows ?? 30);
  const env: NodeJS.ProcessEnv = {
    ...setup.env,
    TERM: "xterm-256color",
    HOME: setup.env.HOME ?? setup.workspace,
  };
  let code: number | undefined;
  const program = new Command().exitOverride();
  registerChatCommand(program, {
    env,
    isTerminal: () => true,
    terminal,
    // As the process's own: the keys leave the environment children inherit.
    takeCredentials(names) {
      const taken = { ...env };
      const present = names.filter((name) => env[name] !== undefined);
      for (const name of present) delete env[name];
      return { env: taken, names: present, environBlanked: false };
    },
    exit: (exitCode) => {
      code = exitCode;
    },
  });
  const line = (text: string) => terminal.write(`${text.replaceAll("\n", "\r\n")}`);
  const model = options.noModel ? [] : ["--model", MODEL];
  const argv = ["chat", "--cwd", setup.workspace, ...model, ...args];
  const exited = program.parseAsync(argv, { from: "user" }).then(
    () => code ?? 0,
    (error: unknown) =>
      reportError(
        error,
        new Writable({ write: (chunk, _encoding, done) => done(void line(String(chunk))) }),
      ),
  );
  void exited.then((status) => line(`EXITED ${status}\n`));
  let over = false;
  void exited.then(() => {
    over = true;
  });
  const screen: VirtualScreen = {
    type: terminal.type,
    keys: terminal.keys,
    screen: terminal.screen,
    raw: terminal.raw,
    waitFor: (expected, timeoutMs = 20_000) => waitForScreen(terminal, expected, timeoutMs),
  };
  t.after(async () => {
    // Leaves as a user does (Ctrl-C twice on an empty prompt), whatever runs.
    for (const until = Date.now() + 10_000; !over && Date.now() < until; ) {
      terminal.keys("Escape", "C-u", "C-c", "C-c");
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    if (!options.mock) await mock.close();
    if (!over) throw new Error(`the session did not end; the screen:\n${terminal.screen()}`);
  });
  await screen.waitFor("/help");
  return { screen, setup, mock, exited };
}

async function waitForScreen(
  terminal: XtermTerminal,
  expected: string | RegExp,
  timeoutMs: number,
): Promise<string> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const last = terminal.screen();
    if (typeof expected === "string" ? last.includes(expected) : expected.test(last)) return last;
    if (Date.now() > until) {
      throw new Error(`timed out waiting for ${String(expected)}; the screen:\n${last}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

// The interactive terminal's end-to-end harness under tmux: `codewhale` (the built CLI) in a
// real terminal against a loopback mock provider of its own, waiting at the prompt. For the
// tests that need a real terminal (raw mode, resize, signals, the tty's restore, pastes, the
// permission prompt); the others run in-process (virtual-chat.ts). Helpers in tui-helpers.ts.
import type { TestContext } from "node:test";
import { type MockProvider, startMockProvider } from "./mock-provider/index.ts";
import { type ExecEnv, execEnv } from "./provider-env.ts";
import { startTmux, type TmuxScreen } from "./tmux.ts";
import { MODEL, prependTopToml, type StartOptions } from "./tui-helpers.ts";

export * from "./tui-helpers.ts";

export interface Started {
  screen: TmuxScreen;
  setup: ExecEnv;
  mock: MockProvider;
}

/** A mock provider, a temp home and workspace, and `codewhale <args>` in tmux at the prompt. */
export async function start(
  t: TestContext,
  args: string[] = [],
  options: StartOptions = {},
): Promise<Started> {
  const mock = options.mock ?? (await startMockProvider());
  const setup = options.setup ?? execEnv(mock, options.toml);
  if (options.topToml) prependTopToml(setup.home, options.topToml);
  const screen = startTmux(["--model", MODEL, ...args], {
    env: setup.env,
    cwd: setup.workspace,
    columns: options.columns ?? 100,
    rows: options.rows ?? 30,
    ...(options.record ? { record: true } : {}),
  });
  const waitFor = screen.waitFor;
  screen.waitFor = async (expected, timeoutMs) => {
    try {
      return await waitFor(expected, timeoutMs);
    } catch (error) {
      // What the provider saw tells a turn stuck before its request from one stuck after it.
      if (error instanceof Error)
        error.message += `\nthe mock provider got ${mock.requests.length} request(s)`;
      throw error;
    }
  };
  t.after(async () => {
    screen.kill();
    if (!options.mock) await mock.close();
  });
  await screen.waitFor("/help");
  return { screen, setup, mock };
}

/** The same as `start` (the name the tool-card, permission and steering tests use). */
export const startChat = start;

// The interactive terminal's end-to-end harness: `codewhale` (the built CLI) in tmux against a
// loopback mock provider of its own, waiting at the prompt; typing helpers; the session logs
// it wrote. Used by test/tui/interactive.test.ts and test/tui/input.test.ts.
import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import type { TestContext } from "node:test";
import type { EventOf, SessionEvent } from "../../src/session/events.ts";
import { readSession } from "../../src/session/reader.ts";
import { type ExecEnv, execEnv, MODEL_OF } from "./exec-harness.ts";
import { type MockProvider, startMockProvider } from "./mock-provider/index.ts";
import { startTmux, type TmuxScreen } from "./tmux.ts";

export const MODEL = MODEL_OF.anthropic;

export interface Started {
  screen: TmuxScreen;
  setup: ExecEnv;
  mock: MockProvider;
}

/** A mock provider, a temp home and workspace, and `codewhale <args>` in tmux at the prompt. */
export async function start(
  t: TestContext,
  args: string[] = [],
  options: { columns?: number; rows?: number; setup?: ExecEnv; mock?: MockProvider } = {},
): Promise<Started> {
  const mock = options.mock ?? (await startMockProvider());
  const setup = options.setup ?? execEnv(mock);
  const screen = startTmux(["--model", MODEL, ...args], {
    env: setup.env,
    cwd: setup.workspace,
    columns: options.columns ?? 100,
    rows: options.rows ?? 30,
  });
  t.after(async () => {
    screen.kill();
    if (!options.mock) await mock.close();
  });
  await screen.waitFor("/help");
  return { screen, setup, mock };
}

export function say(screen: TmuxScreen, text: string): void {
  screen.type(text);
  screen.keys("Enter");
}

/** The session logs under `home`. */
export function logFiles(home: string): string[] {
  const dir = join(home, "sessions");
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".jsonl"))
    .map((file) => join(dir, file));
}

/** The events of the only session log under `home`. */
export function loggedEvents(home: string): SessionEvent[] {
  const files = logFiles(home);
  assert.equal(files.length, 1, `one session log: ${files.join(", ")}`);
  return readSession(files[0]!).events;
}

export function ofType<T extends SessionEvent["type"]>(
  events: SessionEvent[],
  type: T,
): Array<EventOf<T>> {
  return events.filter((e): e is EventOf<T> => e.type === type);
}

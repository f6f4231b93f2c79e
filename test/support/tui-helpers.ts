// What the interactive terminal's tests share on either terminal (tmux, tui-session.ts, or the
// in-process one, virtual-chat.ts): the model, typing a prompt, the session logs a run wrote,
// scripts of one answer or one tool call, and polling the screen.
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { EventOf, SessionEvent } from "../../src/session/events.ts";
import { readSession } from "../../src/session/reader.ts";
import type { MockProvider } from "./mock-provider/index.ts";
import type { ExecEnv } from "./provider-env.ts";
import { MODEL_OF } from "./provider-env.ts";

export const MODEL = MODEL_OF.anthropic;
export const CHAT_MODEL = MODEL;

export interface StartOptions {
  columns?: number;
  rows?: number;
  setup?: ExecEnv;
  mock?: MockProvider;
  /** More config TOML for the temp home, after its last table (execEnv's `extraToml`). */
  toml?: string;
  /** Top-level config keys for the temp home, before its first table. */
  topToml?: string;
  /** Keep the raw bytes written to the terminal (`screen.raw()`). */
  record?: boolean;
  /** Start without `--model` (the config's model, or a local server's). */
  noModel?: boolean;
}

/** What the helpers need of a screen: tmux's or the in-process one. */
export interface ChatScreen {
  type(text: string): void;
  keys(...names: string[]): void;
  screen(): string;
}

/** Puts top-level config keys before the first table of the home's config.toml. */
export function prependTopToml(home: string, topToml: string): void {
  const file = join(home, "config.toml");
  writeFileSync(file, `${topToml}\n${readFileSync(file, "utf8")}`);
}

export function say(screen: ChatScreen, text: string): void {
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
export function loggedEvents(
  home: string,
  options: { tolerateEmpty?: boolean } = {},
): SessionEvent[] {
  const files = logFiles(home);
  assert.equal(files.length, 1, `one session log: ${files.join(", ")}`);
  if (options.tolerateEmpty && readFileSync(files[0]!, "utf8").trim() === "") return [];
  return readSession(files[0]!).events;
}

/**
 * The events of the only session log under `home`, once it exists: a new session opens (its
 * log written) just after its first frame, so "/help" on screen does not mean the log is there.
 */
export async function openedEvents(home: string, timeoutMs = 20_000): Promise<SessionEvent[]> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    // The file is made a moment before its session/start is in it.
    if (existsSync(join(home, "sessions")) && logFiles(home).length > 0) {
      const events = loggedEvents(home, { tolerateEmpty: true });
      if (events.length > 0) return events;
    }
    if (Date.now() > until) throw new Error(`no session log under ${home}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export function ofType<T extends SessionEvent["type"]>(
  events: SessionEvent[],
  type: T,
): Array<EventOf<T>> {
  return events.filter((e): e is EventOf<T> => e.type === type);
}

/** A script of one text answer. */
export const answer = (value: string) => ({ blocks: [{ kind: "text" as const, text: value }] });

/** A script of one tool call. */
export const toolCall = (id: string, name: string, input: Record<string, unknown>) => ({
  blocks: [{ kind: "tool" as const, id, name, input }],
});

/** Polls the screen until `done(screen)` holds; throws with the last screen after 20 s. */
export async function waitUntil(
  screen: ChatScreen,
  done: (text: string) => boolean,
  timeoutMs = 20_000,
): Promise<string> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const now = screen.screen();
    if (done(now)) return now;
    if (Date.now() > until) throw new Error(`timed out; the screen:\n${now}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

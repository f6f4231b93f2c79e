// A signed session with hostile content for the export tests: thinking, a rewritten and a
// refused call, an edit with a diff, a truncated result holding `<script>`, `onerror=`,
// `</textarea>`, a terminal escape and fake secrets. Written with the user's key in a temp
// CODEWHALE_HOME, as exec would, which shares the run's code cache for the CLI (code-cache.ts).
// Shared by test/cli/export-*.test.ts.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { createCheckpointSigner } from "../../src/session/checkpoint.ts";
import { checkpointIndexPath } from "../../src/session/checkpoint-index.ts";
import type { EventInput } from "../../src/session/events.ts";
import { loadOrCreateSigningKey } from "../../src/session/signing-key.ts";
import { SessionWriter } from "../../src/session/writer.ts";
import { shareCodeCache } from "./code-cache.ts";
import { fakeKey } from "./exec-harness.ts";
import { resultEvent, startPayload, tempDir } from "./session-fixtures.ts";

export const HOSTILE_OUTPUT =
  '<script>document.title="pwned"</script><img src=x onerror="document.title=1"></textarea>\u001b[31mred\u001b[0m';

export interface ExportSetup {
  home: string;
  sessions: string;
  env: Record<string, string>;
  id: string;
  path: string;
  /** The fake secret put in a tool result; a redacted export must not contain it. */
  secret: string;
}

const usage = { input: 1200, output: 80, cache_read: 0, cache_write: 0, reasoning: 0 };

function turnEvents(secret: string): EventInput[] {
  const step = { turn: 0, step: 0 };
  return [
    { type: "user/message", text: "fix the <b>bug</b> in src/math.js" },
    { type: "turn/start", turn: 0 },
    { type: "step/start", ...step, provider: "anthropic", model: "claude-sonnet-4-5" },
    { type: "assistant/chunk", ...step, block: 0, kind: "thinking", delta: "The sum is " },
    { type: "assistant/chunk", ...step, block: 0, kind: "thinking", delta: "off by one." },
    { type: "assistant/chunk", ...step, block: 1, kind: "text", delta: "I'll **fix** it " },
    {
      type: "assistant/chunk",
      ...step,
      block: 1,
      kind: "text",
      delta: "now.\n\n![x](http://127.0.0.1:9/pixel.png) <script>alert(1)</script>",
    },
    { type: "step/end", ...step, usage, cost: 0.0123 },
    {
      type: "tool/call",
      ...step,
      call_id: "call_1",
      name: "edit",
      arguments: { path: "src/math.js", old_string: "a - b", new_string: "a + b" },
      decision: { outcome: "allow", by: "mode" },
    },
    resultEvent("call_1", "Edited src/math.js"),
    {
      type: "tool/call",
      ...step,
      call_id: "call_2",
      name: "bash",
      arguments: { command: "npm test --silent" },
      original_arguments: { command: "npm test" },
      rewritten_by: "hook:PreToolUse",
      rewrite_reason: "quieter",
      decision: { outcome: "allow", by: "hook" },
    },
    resultEvent("call_2", `${HOSTILE_OUTPUT}\nexport ANTHROPIC_API_KEY=${secret}\n[exit 1]`, {
      is_error: true,
      original_bytes: 90_000,
      delivered_bytes: 2_000,
      truncated: true,
    }),
    {
      type: "tool/call",
      ...step,
      call_id: "call_3",
      name: "bash",
      arguments: { command: "rm -rf /" },
      decision: { outcome: "deny", by: "rule", rule: "bash(rm *)", reason: "denied by rule" },
    },
    { type: "step/start", turn: 0, step: 1, provider: "anthropic", model: "claude-sonnet-4-5" },
    { type: "assistant/chunk", turn: 0, step: 1, block: 0, kind: "text", delta: "Fixed." },
    { type: "step/end", turn: 0, step: 1, usage, cost: 0.0101 },
    { type: "turn/end", turn: 0, reason: "completed" },
  ];
}

/** A signed, closed session in a fresh home; `extra` events are appended after the turn. */
export function hostileSession(extra: EventInput[] = []): ExportSetup {
  const home = tempDir("cw-export-home-");
  const sessions = join(home, "sessions");
  mkdirSync(sessions);
  shareCodeCache(home);
  const key = loadOrCreateSigningKey(home);
  const signer = createCheckpointSigner(key, checkpointIndexPath(home));
  const writer = SessionWriter.create(sessions, startPayload, { signer });
  const secret = fakeKey("anthropic");
  for (const event of [...turnEvents(secret), ...extra]) writer.append(event);
  writer.close();
  const env = { PATH: process.env.PATH ?? "", CODEWHALE_HOME: home, TZ: "Pacific/Chatham" };
  return { home, sessions, env, id: writer.id, path: writer.path, secret };
}

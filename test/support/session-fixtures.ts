// Builders for session logs in temp dirs: a start payload, typical events, and helpers to
// damage a log on purpose. Shared by the session and CLI tests.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CheckpointSigner } from "../../src/session/checkpoint.ts";
import type { EventInput } from "../../src/session/events.ts";
import { SessionWriter } from "../../src/session/writer.ts";

export function tempDir(prefix = "cw-test-"): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** A deterministic signer: the writer only places what it returns (a fake key, a fake sig). */
export const fakeSigner: CheckpointSigner = {
  checkpoint: (sessionId, seq, h) => ({
    type: "session/checkpoint",
    session_id: sessionId,
    signed_seq: seq,
    signed_h: h,
    key: "fake-key",
    sig: Buffer.from(`${seq}:${h}`).toString("base64"),
  }),
  recorded: () => {},
};

export const startPayload = {
  cwd: "/work/project",
  version: "0.0.0-test",
  provider: "anthropic",
  model: "claude-sonnet-4-5",
  config_fingerprint: "0".repeat(64),
};

/** A short, realistic turn: prompt, one streamed answer with a tool call, its result. */
export function sampleTurn(turn = 0): EventInput[] {
  return [
    { type: "user/message", text: "list the files" },
    { type: "turn/start", turn },
    { type: "step/start", turn, step: 0, provider: "anthropic", model: "claude-sonnet-4-5" },
    { type: "assistant/chunk", turn, step: 0, block: 0, kind: "text", delta: "Let me " },
    { type: "assistant/chunk", turn, step: 0, block: 0, kind: "text", delta: "look." },
    {
      type: "assistant/message",
      turn,
      step: 0,
      provider: "anthropic",
      model: "claude-sonnet-4-5",
      api: "anthropic",
      request_id: "req_1",
      stop_reason: "tool_use",
      content: [
        { type: "text", text: "Let me look." },
        { type: "tool_use", id: "toolu_1", name: "ls", input: { path: "." } },
      ],
    },
    {
      type: "step/end",
      turn,
      step: 0,
      usage: { input: 10, output: 5, cache_read: 0, cache_write: 0, reasoning: 0 },
      cost: 0.0001,
    },
    {
      type: "tool/call",
      turn,
      step: 0,
      call_id: "toolu_1",
      name: "ls",
      arguments: { path: "." },
      decision: { outcome: "allow", by: "mode" },
    },
    {
      type: "tool/result",
      call_id: "toolu_1",
      content: "a.txt\nb.txt",
      is_error: false,
      original_bytes: 11,
      delivered_bytes: 11,
      truncated: false,
      spill_path: null,
      policy_errors: [],
    },
    { type: "turn/end", turn, reason: "completed" },
  ];
}

/** Writes a closed session with the given events; returns its id and path. */
export function writeSession(dir: string, events: EventInput[] = sampleTurn()) {
  const writer = SessionWriter.create(dir, startPayload);
  for (const event of events) writer.append(event);
  writer.close();
  return { id: writer.id, path: writer.path };
}

/** Replaces line `index` (0-based) of a log with the result of `edit`. */
export function editLine(path: string, index: number, edit: (line: string) => string): void {
  const lines = readFileSync(path, "utf8").split("\n");
  lines[index] = edit(lines[index]!);
  writeFileSync(path, lines.join("\n"));
}

/** A delivered `tool/result` of `content` (its size in bytes, not truncated), with `extra`. */
export function resultEvent(
  callId: string,
  content: string,
  extra: Partial<Extract<EventInput, { type: "tool/result" }>> = {},
): EventInput {
  const bytes = Buffer.byteLength(content);
  return {
    type: "tool/result",
    call_id: callId,
    content,
    is_error: false,
    original_bytes: bytes,
    delivered_bytes: bytes,
    truncated: false,
    spill_path: null,
    policy_errors: [],
    ...extra,
  };
}

/** A streamed text delta of turn 0, step 0, block 0. */
export function chunkEvent(delta: string): EventInput {
  return { type: "assistant/chunk", turn: 0, step: 0, block: 0, kind: "text", delta };
}

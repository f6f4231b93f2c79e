// The JSON a hook reads on stdin, in Claude Code's field names: the common fields
// (`session_id`, `transcript_path`, `cwd`, `hook_event_name`, `permission_mode`) plus the
// event's own. Kept under the 1 MiB stdin cap by shortening the longest strings, never by
// cutting the JSON, so a hook always receives a document it can parse.
import type { HookEvent, PermissionMode } from "../config/index.ts";
import type { JsonValue } from "../session/events.ts";
import { claudePermissionMode } from "./protocol.ts";
import { HOOK_IO_CAP } from "./run-hook.ts";

export interface HookSession {
  sessionId: string;
  /** The session log; codewhale's JSONL format, not Claude Code's transcript format. */
  transcriptPath: string;
  cwd: string;
  permissionMode: PermissionMode;
}

const TRUNCATION_MARK = "…[truncated by codewhale]";

export function hookInputText(
  event: HookEvent,
  session: HookSession,
  fields: Record<string, JsonValue>,
  cap = HOOK_IO_CAP,
): string {
  const payload: Record<string, JsonValue> = {
    session_id: session.sessionId,
    transcript_path: session.transcriptPath,
    cwd: session.cwd,
    hook_event_name: event,
    permission_mode: claudePermissionMode(session.permissionMode),
    ...fields,
  };
  return fitToCap(payload, cap);
}

/** Serializes `value`, halving the longest strings until the text fits in `cap` bytes. */
export function fitToCap(value: JsonValue, cap: number): string {
  let text = JSON.stringify(value);
  let limit = longestString(value);
  while (Buffer.byteLength(text) > cap && limit > TRUNCATION_MARK.length) {
    limit = Math.floor(limit / 2);
    text = JSON.stringify(shorten(value, limit));
  }
  return text;
}

function shorten(value: JsonValue, limit: number): JsonValue {
  if (typeof value === "string") {
    return value.length > limit ? value.slice(0, limit) + TRUNCATION_MARK : value;
  }
  if (Array.isArray(value)) return value.map((item) => shorten(item, limit));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shorten(v, limit)]));
  }
  return value;
}

function longestString(value: JsonValue): number {
  if (typeof value === "string") return value.length;
  const children = Array.isArray(value)
    ? value
    : value !== null && typeof value === "object"
      ? Object.values(value)
      : [];
  return children.reduce<number>((most, child) => Math.max(most, longestString(child)), 0);
}

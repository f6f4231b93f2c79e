// What the search index holds of one event: the text the model saw or wrote (prompts, answers
// without thinking, tool calls with their effective arguments and paths, tool results as
// delivered, titles, compaction summaries) and the session facts (project, model, parent,
// cost). Pure: indexer.ts calls it for each event it reads from a log.
import type { SessionEvent } from "../session/events.ts";

/** One searchable piece of a session: an event's text, with what the filters need. */
export interface SearchDocument {
  seq: number;
  ts: string;
  kind: "prompt" | "answer" | "call" | "result" | "title" | "summary";
  text: string;
  /** The tool of a call or result; "" otherwise. */
  tool: string;
  /** The call a call or result belongs to; "" otherwise. */
  callId: string;
  /** The paths a call names (its arguments' path-like values). */
  paths: string[];
}

/** What an event changes in the session's row (start, title, model, cost). */
export interface SessionFacts {
  cwd?: string;
  model?: string;
  parentId?: string;
  title?: string;
  startedAt?: string;
  cost?: number;
}

const PATH_KEYS = /^(path|paths|file|files|file_path|filepath|filename|cwd|dir|directory)$/i;

/** The searchable document of an event, or null for events that hold no text to find. */
export function documentOf(
  event: SessionEvent,
  toolOf: (callId: string) => string,
): SearchDocument | null {
  const base = { seq: event.seq, ts: event.ts, tool: "", callId: "", paths: [] as string[] };
  switch (event.type) {
    case "user/message":
      return event.blocked ? null : { ...base, kind: "prompt", text: event.text };
    case "steering/message":
      return { ...base, kind: "prompt", text: event.text };
    case "assistant/message": {
      const text = answerText(event.content);
      return text === "" ? null : { ...base, kind: "answer", text };
    }
    case "tool/call": {
      const paths = pathsIn(event.arguments);
      const text = `${event.name} ${argumentText(event.arguments)}`;
      return { ...base, kind: "call", text, tool: event.name, callId: event.call_id, paths };
    }
    case "tool/result": {
      const tool = toolOf(event.call_id);
      return { ...base, kind: "result", text: event.content, tool, callId: event.call_id };
    }
    case "session/title":
      return { ...base, kind: "title", text: event.title };
    case "context/compaction":
      return { ...base, kind: "summary", text: event.summary };
    default:
      return null;
  }
}

/** The session facts an event carries, or null. */
export function factsOf(event: SessionEvent): SessionFacts | null {
  switch (event.type) {
    case "session/start":
      return {
        cwd: event.cwd,
        model: `${event.provider}/${event.model}`,
        startedAt: event.ts,
        ...(event.parent_session_id ? { parentId: event.parent_session_id } : {}),
      };
    case "step/start":
      return { model: `${event.provider}/${event.model}` };
    case "session/title":
      return { title: event.title };
    case "step/end":
      return event.cost === null ? null : { cost: event.cost };
    default:
      return null;
  }
}

/**
 * The visible text of a provider-native assistant message: Anthropic `text` blocks, Responses
 * `message` items' `output_text`, a Chat Completions message's `content`; never thinking or
 * reasoning.
 */
function answerText(content: readonly unknown[]): string {
  const parts: string[] = [];
  for (const item of content) collectText(item, parts);
  return parts.join("\n");
}

function collectText(item: unknown, parts: string[]): void {
  if (typeof item !== "object" || item === null) return;
  const record = item as Record<string, unknown>;
  const type = record.type;
  if ((type === "text" || type === "output_text") && typeof record.text === "string") {
    parts.push(record.text);
  } else if (type === "message" && Array.isArray(record.content)) {
    for (const inner of record.content) collectText(inner, parts);
  } else if (type === undefined && record.role === "assistant") {
    if (typeof record.content === "string") parts.push(record.content);
    else if (Array.isArray(record.content))
      for (const inner of record.content) collectText(inner, parts);
  }
}

/** The string values of a call's arguments, joined, depth-limited (a hostile log nests deep). */
function argumentText(value: unknown, depth = 0): string {
  if (depth > 32) return "";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (Array.isArray(value)) return value.map((item) => argumentText(item, depth + 1)).join(" ");
  if (typeof value === "object" && value !== null) {
    return Object.values(value)
      .map((item) => argumentText(item, depth + 1))
      .join(" ");
  }
  return "";
}

/** The values under path-like keys (`path`, `file_path`, `paths`, …) of a call's arguments. */
function pathsIn(value: unknown, depth = 0): string[] {
  if (depth > 8 || typeof value !== "object" || value === null) return [];
  const found: string[] = [];
  for (const [key, inner] of Object.entries(value)) {
    if (PATH_KEYS.test(key)) {
      if (typeof inner === "string") found.push(inner);
      else if (Array.isArray(inner))
        found.push(...inner.filter((p): p is string => typeof p === "string"));
    } else if (typeof inner === "object") {
      found.push(...pathsIn(inner, depth + 1));
    }
  }
  return found;
}

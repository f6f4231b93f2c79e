// What the search index holds of one event: the text the model saw or wrote (prompts, answers
// with their thinking apart, tool calls with their effective arguments and paths, tool results
// as delivered, titles, compaction summaries), each capped at TEXT_CAP characters, and the
// session facts (project, model, parent, cost). Pure, and safe on any JSON: the indexer reads
// logs with their hash chain checked but not their payloads' schema. Called by indexer.ts for
// each event it reads, and by snippets.ts for the event of a hit.
import type { SessionEvent } from "../session/events.ts";

/** One searchable piece of a session: an event's text, with what the filters need. */
export interface SearchDocument {
  seq: number;
  ts: string;
  kind: "prompt" | "answer" | "call" | "result" | "title" | "summary";
  text: string;
  /** An answer's thinking (searched only when asked); "" otherwise. */
  thinking: string;
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

/**
 * The characters of one event's text (and of its thinking) that are indexed: a huge tool output
 * is findable by its first 64 K characters, which keeps the index small beside the logs.
 */
const TEXT_CAP = 65_536;

const PATH_KEYS = /^(path|paths|file|files|file_path|filepath|filename|cwd|dir|directory)$/i;

/** The searchable document of an event, or null for events that hold no text to find. */
export function documentOf(
  event: SessionEvent,
  toolOf: (callId: string) => string,
): SearchDocument | null {
  const doc = uncappedDocumentOf(event, toolOf);
  if (doc === null || (doc.text === "" && doc.thinking === "")) return null;
  return { ...doc, text: capped(doc.text), thinking: capped(doc.thinking) };
}

function capped(text: string): string {
  return text.length > TEXT_CAP ? text.slice(0, TEXT_CAP) : text;
}

function uncappedDocumentOf(
  event: SessionEvent,
  toolOf: (callId: string) => string,
): SearchDocument | null {
  const base = {
    seq: event.seq,
    ts: stringOr(event.ts),
    thinking: "",
    tool: "",
    callId: "",
    paths: [] as string[],
  };
  switch (event.type) {
    case "user/message":
      return event.blocked ? null : { ...base, kind: "prompt", text: stringOr(event.text) };
    case "steering/message":
      return { ...base, kind: "prompt", text: stringOr(event.text) };
    case "assistant/message": {
      const content = Array.isArray(event.content) ? event.content : [];
      const thinking = answerText(content, "thinking");
      return { ...base, kind: "answer", text: answerText(content, "text"), thinking };
    }
    case "tool/call": {
      const name = stringOr(event.name);
      const callId = stringOr(event.call_id);
      const paths = pathsIn(event.arguments);
      const text = `${name} ${argumentText(event.arguments)}`;
      return { ...base, kind: "call", text, tool: name, callId, paths };
    }
    case "tool/result": {
      const tool = toolOf(stringOr(event.call_id));
      const text = stringOr(event.content);
      return { ...base, kind: "result", text, tool, callId: stringOr(event.call_id) };
    }
    case "session/title":
      return { ...base, kind: "title", text: stringOr(event.title) };
    case "context/compaction":
      return { ...base, kind: "summary", text: stringOr(event.summary) };
    default:
      return null;
  }
}

/** A field the schema says is a string, or "" (payloads are not schema-checked here). */
function stringOr(value: unknown): string {
  return typeof value === "string" ? value : "";
}

/** The session facts an event carries, or null. */
export function factsOf(event: SessionEvent): SessionFacts | null {
  switch (event.type) {
    case "session/start": {
      const parent = stringOr(event.parent_session_id);
      return {
        cwd: stringOr(event.cwd),
        model: `${stringOr(event.provider)}/${stringOr(event.model)}`,
        startedAt: stringOr(event.ts),
        ...(parent ? { parentId: parent } : {}),
      };
    }
    case "step/start":
      return { model: `${stringOr(event.provider)}/${stringOr(event.model)}` };
    case "session/title":
      return { title: stringOr(event.title) };
    case "step/end":
      return typeof event.cost === "number" ? { cost: event.cost } : null;
    default:
      return null;
  }
}

/**
 * The visible text (or the thinking) of a provider-native assistant message: Anthropic `text`
 * and `thinking` blocks, Responses `message` items' `output_text` and `reasoning` items'
 * summaries, a Chat Completions message's `content` and `reasoning_content`.
 */
function answerText(content: readonly unknown[], want: "text" | "thinking"): string {
  const parts: string[] = [];
  for (const item of content) collectText(item, want, parts);
  return parts.join("\n");
}

function collectText(item: unknown, want: "text" | "thinking", parts: string[]): void {
  if (typeof item !== "object" || item === null) return;
  const record = item as Record<string, unknown>;
  const type = record.type;
  const push = (value: unknown) => typeof value === "string" && value !== "" && parts.push(value);
  if (type === "text" || type === "output_text") {
    if (want === "text") push(record.text);
  } else if (type === "thinking") {
    if (want === "thinking") push(record.thinking);
  } else if (type === "reasoning" || type === "summary_text") {
    if (want === "thinking" && type === "summary_text") push(record.text);
    if (Array.isArray(record.summary))
      for (const inner of record.summary) collectText(inner, want, parts);
  } else if (type === "message" && Array.isArray(record.content)) {
    for (const inner of record.content) collectText(inner, want, parts);
  } else if (type === undefined && record.role === "assistant") {
    if (want === "thinking") push(record.reasoning_content ?? record.reasoning);
    else if (typeof record.content === "string") push(record.content);
    else if (Array.isArray(record.content))
      for (const inner of record.content) collectText(inner, want, parts);
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

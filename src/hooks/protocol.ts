// The Claude Code hook protocol as codewhale speaks it: the one table mapping codewhale's
// tool names and argument keys to Claude Code's (both ways, for `tool_input` and
// `updatedInput`), permission-mode names, and the `matcher` rule. Users' hook scripts written
// for Claude Code see exactly the names they expect.
import { isAbsolute, resolve } from "node:path";
import type { PermissionMode } from "../config/index.ts";
import type { JsonValue } from "../session/events.ts";

interface ToolMapping {
  /** Claude Code's name for the tool. */
  name: string;
  /** codewhale key → Claude Code key, for the keys that differ. */
  keys: Readonly<Record<string, string>>;
  /** Claude Code keys holding a path, sent absolute as Claude Code does. */
  paths: readonly string[];
}

/** codewhale tool name → Claude Code's name and keys. Tools not listed keep their names. */
export const TOOL_MAPPINGS: Readonly<Record<string, ToolMapping>> = {
  bash: { name: "Bash", keys: {}, paths: [] },
  read: { name: "Read", keys: { path: "file_path" }, paths: ["file_path"] },
  write: { name: "Write", keys: { path: "file_path" }, paths: ["file_path"] },
  edit: { name: "Edit", keys: { path: "file_path" }, paths: ["file_path"] },
  glob: { name: "Glob", keys: {}, paths: ["path"] },
  grep: { name: "Grep", keys: {}, paths: ["path"] },
  ls: { name: "LS", keys: {}, paths: ["path"] },
  todo_write: { name: "TodoWrite", keys: {}, paths: [] },
};

const MODE_NAMES: Readonly<Record<PermissionMode, string>> = {
  default: "default",
  "accept-edits": "acceptEdits",
  plan: "plan",
  bypass: "bypassPermissions",
};

export function claudeToolName(tool: string): string {
  return TOOL_MAPPINGS[tool]?.name ?? tool;
}

export function claudePermissionMode(mode: PermissionMode): string {
  return MODE_NAMES[mode];
}

type JsonObject = { [key: string]: JsonValue };

function isObject(value: JsonValue): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** codewhale arguments → Claude Code `tool_input`: renamed keys, absolute paths. */
export function toClaudeInput(tool: string, args: JsonValue, cwd: string): JsonValue {
  const mapping = TOOL_MAPPINGS[tool];
  if (!mapping || !isObject(args)) return args;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(args)) {
    const claudeKey = mapping.keys[key] ?? key;
    const isPath = mapping.paths.includes(claudeKey) && typeof value === "string";
    out[claudeKey] = isPath ? resolve(cwd, value) : value;
  }
  return out;
}

/**
 * Claude Code `updatedInput` → codewhale arguments. Keys the hook leaves out keep their
 * value; a path equal to the absolute form of the original keeps the original spelling, so
 * a hook that echoes its input back rewrites nothing.
 */
export function fromClaudeInput(
  tool: string,
  updated: JsonValue,
  original: JsonValue,
  cwd: string,
): JsonValue {
  if (!isObject(updated)) return updated;
  const mapping = TOOL_MAPPINGS[tool];
  const back = new Map(Object.entries(mapping?.keys ?? {}).map(([ours, theirs]) => [theirs, ours]));
  const base: JsonObject = isObject(original) ? { ...original } : {};
  for (const [claudeKey, value] of Object.entries(updated)) {
    const key = back.get(claudeKey) ?? claudeKey;
    const before = base[key];
    const samePath =
      typeof value === "string" &&
      typeof before === "string" &&
      !isAbsolute(before) &&
      isAbsolute(value) &&
      resolve(cwd, before) === value;
    base[key] = samePath ? before : value;
  }
  return base;
}

/**
 * True when a hook's `matcher` selects the tool: absent, empty or `*` selects every tool;
 * otherwise it is a regular expression that must match the whole of Claude Code's name or
 * codewhale's (`Bash`, `Edit|Write`, `bash`, `mcp__.*`).
 */
export function matcherSelects(matcher: string | undefined, tool: string): boolean {
  if (matcher === undefined || matcher === "" || matcher === "*") return true;
  const pattern = compileMatcher(matcher);
  return pattern.test(claudeToolName(tool)) || pattern.test(tool);
}

/** The matcher as an anchored RegExp; throws SyntaxError for an invalid one. */
export function compileMatcher(matcher: string): RegExp {
  return new RegExp(`^(?:${matcher})$`);
}

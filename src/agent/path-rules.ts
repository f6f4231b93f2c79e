// Rules with `paths:` (config/rule-files.ts) reach the model when the session first works on a
// matching file: a call whose `path` (or `file_path`) argument names a file the rule's globs
// match gets the rule's text after its result, once per session. What was delivered is read
// back from the log's `tool/result` events (live and on resume alike), so the log stays the one
// record of what the model was told. Used by tool-calls.ts; built by compose-session.ts.
import { isAbsolute, relative, resolve, sep } from "node:path";
import picomatch from "picomatch";
import type { RuleFile } from "../config/index.ts";
import type { SessionEvent } from "../session/events.ts";
import { withAddedText } from "../tools/tool-output.ts";
import type { ToolResult } from "../tools/types.ts";

interface ScopedRule {
  path: string;
  text: string;
  globs: string[];
  matches: (path: string) => boolean;
}

export class PathRules {
  readonly #rules: ScopedRule[];
  readonly #delivered = new Set<string>();

  constructor(
    rules: readonly RuleFile[],
    private readonly root: string,
  ) {
    this.#rules = rules.flatMap((rule) =>
      rule.paths
        ? [{ ...rule, globs: rule.paths, matches: picomatch(rule.paths, { dot: true }) }]
        : [],
    );
  }

  get size(): number {
    return this.#rules.length;
  }

  /** Every appended event: a rule's heading in a tool result means it was delivered. */
  observe(event: SessionEvent): void {
    if (event.type !== "tool/result" || this.#rules.length === 0) return;
    if (!event.content.includes(HEADING_START)) return;
    for (const rule of this.#rules) {
      if (event.content.includes(heading(rule))) this.#delivered.add(rule.path);
    }
  }

  /** The result with the rules its call's file brings in appended (none delivered before). */
  withRules(result: ToolResult, args: unknown, cwd: string): ToolResult {
    if (this.#rules.length === 0 || result.isError) return result;
    const file = targetOf(args, cwd, this.root);
    if (file === null) return result;
    const due = this.#rules.filter((r) => !this.#delivered.has(r.path) && r.matches(file));
    if (due.length === 0) return result;
    const suffix = due.map((rule) => `\n\n${heading(rule)}\n\n${rule.text}`).join("");
    return withAddedText(result, "", suffix);
  }
}

const HEADING_START = "# Instructions from ";

function heading(rule: ScopedRule): string {
  return `${HEADING_START}${rule.path} (for files matching ${rule.globs.join(", ")})`;
}

/** The call's file relative to the project root, or null (no path, or outside the root). */
function targetOf(args: unknown, cwd: string, root: string): string | null {
  if (typeof args !== "object" || args === null) return null;
  const record = args as Record<string, unknown>;
  const given = typeof record.path === "string" ? record.path : record.file_path;
  if (typeof given !== "string" || given === "") return null;
  const inRoot = relative(root, isAbsolute(given) ? given : resolve(cwd, given));
  if (inRoot === "" || inRoot.startsWith("..") || isAbsolute(inRoot)) return null;
  return inRoot.split(sep).join("/");
}

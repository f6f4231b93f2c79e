// The input editor's completion: slash commands (built-in and user-defined) and typed paths
// (Tab) through pi-tui's CombinedAutocompleteProvider, and `@path` over the workspace's own
// files: the .gitignore-aware walk the glob tool uses (tools/builtin/walk.ts: symlinks not
// followed, `.git` skipped), matched fuzzily, every offer re-checked to resolve inside the
// workspace. A typed path is offered only when it is one of those files or their directories.
// Nothing outside the workspace is ever offered (`../x`, an absolute path, `~`, a symlink out).
// `@server:` offers that MCP server's resources (mcp-input.ts lists them), and a typed `@`
// that starts a server's name offers `@server:` too. A file name is shown and inserted through
// the escaper (a hostile repository's `\x1b[2J.txt` reads, and goes into the prompt, as that
// text: what the model's tools show it as too). Made by app.ts.
import { realpathSync } from "node:fs";
import { join, posix, sep } from "node:path";
import {
  type AutocompleteItem,
  type AutocompleteProvider,
  type AutocompleteSuggestions,
  CombinedAutocompleteProvider,
  fuzzyFilter,
  type SlashCommand,
} from "@mariozechner/pi-tui";
import { terminalSafe as safe, terminalSafeLine } from "../runner/index.ts";
import { walkFiles } from "../tools/builtin/walk.ts";
import type { McpResourceInfo } from "../tools/mcp-catalog.ts";

/** The MCP resources completion offers after `@server:`. */
export interface ResourceLister {
  servers(): string[];
  resourcesOf(server: string): McpResourceInfo[];
}

/** At most this many files are indexed (a huge tree stays fast; the rest is not offered). */
export const MAX_INDEXED = 50_000;
/** The index is rebuilt when older than this. */
const INDEX_TTL_MS = 5_000;
const MAX_OFFERED = 20;
/** A resource URI that can be typed into the editor as it is. */
const TYPABLE = /^[^\s\p{Cc}\p{Cf}]+$/u;

/** `@` with what follows it up to the cursor, when it starts a word: `@src/ap`, `@"my fi`. */
export function atPrefix(textBeforeCursor: string): string | undefined {
  return /(?:^|\s)(@"[^"]*|@[^\s"]*)$/.exec(textBeforeCursor)?.[1];
}

export class WorkspaceFiles {
  private index: { at: number; paths: Promise<string[]> } | undefined;
  private readonly realRoot: string;

  constructor(
    private readonly root: string,
    private readonly now: () => number = Date.now,
  ) {
    this.realRoot = safeRealpath(root) ?? root;
  }

  /** Workspace-relative paths (files, then the directories above them), POSIX separators. */
  paths(signal?: AbortSignal): Promise<string[]> {
    if (!this.index || this.now() - this.index.at > INDEX_TTL_MS)
      this.index = { at: this.now(), paths: this.walk(signal) };
    return this.index.paths;
  }

  private async walk(signal: AbortSignal | undefined): Promise<string[]> {
    const files: string[] = [];
    const dirs = new Set<string>();
    const prefix = this.root.endsWith(sep) ? this.root : `${this.root}${sep}`;
    for await (const path of walkFiles({
      root: this.root,
      start: this.root,
      ...(signal ? { signal } : {}),
    })) {
      if (!path.startsWith(prefix)) continue;
      const rel = path.slice(prefix.length).split(sep).join("/");
      files.push(rel);
      for (let at = rel.indexOf("/"); at > 0; at = rel.indexOf("/", at + 1))
        dirs.add(`${rel.slice(0, at)}/`);
      if (files.length >= MAX_INDEXED) break;
    }
    return [...files, ...dirs];
  }

  /** True when `rel` resolves (symlinks followed) inside the workspace. */
  inside(rel: string): boolean {
    const real = safeRealpath(join(this.root, rel));
    return (
      real !== undefined && (real === this.realRoot || real.startsWith(`${this.realRoot}${sep}`))
    );
  }

  /**
   * The offers of a typed path (pi-tui's, from the directory listing) that are workspace files
   * or directories the index holds (so not ignored), resolving inside it; none for a path
   * that starts outside it.
   */
  async within(items: AutocompleteItem[], signal?: AbortSignal): Promise<AutocompleteItem[]> {
    const known = new Set(await this.paths(signal));
    return items.filter((item) => {
      const rel = workspaceRelative(item.value);
      return rel !== undefined && known.has(rel) && this.inside(rel);
    });
  }

  /** The best matches for `query`, each checked to be inside the workspace. */
  async suggest(query: string, signal?: AbortSignal): Promise<string[]> {
    const paths = await this.paths(signal);
    if (query.startsWith("/") || query.startsWith("~") || query.split("/").includes(".."))
      return [];
    const matched = query ? fuzzyFilter(paths, query, (path) => path) : [...paths].sort(byDepth);
    const out: string[] = [];
    for (const path of matched) {
      if (out.length >= MAX_OFFERED) break;
      if (this.inside(path)) out.push(path);
    }
    return out;
  }
}

/** A listed file as the menu shows it and the editor takes it: through the escaper. */
function escapedItem(item: AutocompleteItem): AutocompleteItem {
  return {
    ...item,
    value: terminalSafeLine(item.value),
    label: terminalSafeLine(item.label),
    ...(item.description === undefined ? {} : { description: terminalSafeLine(item.description) }),
  };
}

/**
 * A typed path (quotes stripped) as the index spells it, `dir/` for a directory; undefined
 * when it is absolute, starts at home or leaves the workspace (`..`).
 */
export function workspaceRelative(typed: string): string | undefined {
  const path = typed.replace(/^"|"$/g, "");
  if (path === "" || path.startsWith("/") || path.startsWith("~") || path.includes("\\"))
    return undefined;
  const normal = posix.normalize(path);
  if (normal === ".." || normal.startsWith("../") || normal === "./") return undefined;
  return normal;
}

function byDepth(a: string, b: string): number {
  return a.split("/").length - b.split("/").length || (a < b ? -1 : 1);
}

function safeRealpath(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

export class InputCompletion implements AutocompleteProvider {
  constructor(
    private readonly commands: () => readonly SlashCommand[],
    private readonly files: WorkspaceFiles,
    private readonly cwd: string,
    private readonly resources: ResourceLister = { servers: () => [], resourcesOf: () => [] },
  ) {}

  /** Made afresh at each completion: the user-defined commands can change between turns. */
  private get base(): CombinedAutocompleteProvider {
    return new CombinedAutocompleteProvider([...this.commands()], this.cwd, null);
  }

  async getSuggestions(
    lines: string[],
    cursorLine: number,
    cursorCol: number,
    options: { signal: AbortSignal; force?: boolean },
  ): Promise<AutocompleteSuggestions | null> {
    const before = (lines[cursorLine] ?? "").slice(0, cursorCol);
    const prefix = atPrefix(before);
    if (prefix === undefined) {
      const offer = () => this.base.getSuggestions(lines, cursorLine, cursorCol, options);
      return this.typedPath(before, options, offer);
    }
    const quoted = prefix.startsWith('@"');
    const query = prefix.slice(quoted ? 2 : 1);
    const mcp = quoted ? undefined : this.mcpSuggestions(query);
    if (mcp?.resources) return mcp.items.length > 0 ? { items: mcp.items, prefix } : null;
    const found = await this.files.suggest(query, options.signal);
    const servers = mcp?.items ?? [];
    if (options.signal.aborted || found.length + servers.length === 0) return null;
    const files: AutocompleteItem[] = found.map((path) => {
      const name = path.endsWith("/")
        ? `${path.slice(0, -1).split("/").pop()}/`
        : (path.split("/").pop() ?? path);
      const shown = terminalSafeLine(path);
      const value = quoted || path.includes(" ") || shown !== path ? `@"${shown}"` : `@${path}`;
      return { value, label: terminalSafeLine(name), description: shown };
    });
    return { items: [...servers, ...files], prefix };
  }

  /**
   * After `@server:` (a server with resources) its resources, fuzzily matched on URI and
   * name (`resources` set); before the colon, the servers whose name starts with the query.
   */
  private mcpSuggestions(query: string): { resources: boolean; items: AutocompleteItem[] } {
    const servers = this.resources.servers();
    const colon = query.indexOf(":");
    const server = colon > 0 ? query.slice(0, colon) : undefined;
    if (server !== undefined && servers.includes(server)) {
      const typed = query.slice(colon + 1);
      // A URI goes into the editor as typed text: one with spaces or control or format
      // characters (a hostile server's escape sequences) is never offered.
      const all = this.resources.resourcesOf(server).filter((r) => TYPABLE.test(r.uri));
      const matched = typed ? fuzzyFilter(all, typed, (r) => `${r.uri} ${r.name}`) : all;
      const items = matched.slice(0, MAX_OFFERED).map((resource) => ({
        value: resource.mention,
        label: safe(resource.name || resource.uri),
        description: safe(resource.mention),
      }));
      return { resources: true, items };
    }
    if (colon >= 0 || query.includes("/")) return { resources: false, items: [] };
    const items = servers
      .filter((name) => name.startsWith(query))
      .map((name) => ({ value: `@${name}:`, label: `${name}:`, description: "MCP resources" }));
    return { resources: false, items };
  }

  /** Slash commands as pi-tui offers them; a typed path only within the workspace. */
  private async typedPath(
    before: string,
    options: { signal: AbortSignal; force?: boolean },
    offer: () => Promise<AutocompleteSuggestions | null>,
  ): Promise<AutocompleteSuggestions | null> {
    const commandMenu = !options.force && before.startsWith("/");
    const word = /(?:^|\s)("[^"]*|[^\s"]*)$/.exec(before)?.[1] ?? "";
    const start = word.replace(/^"/, "");
    // Not even listed: a path that starts outside the workspace.
    if (!commandMenu && start !== "" && workspaceRelative(`${start}x`) === undefined) return null;
    // A space typed while a menu is open is not a request for files: pi-tui would list the
    // directory there, and the Enter that was meant to send would insert a file. Tab lists.
    if (!options.force && !commandMenu && word === "") return null;
    const offered = await offer();
    if (!offered || commandMenu) return offered;
    const items = (await this.files.within(offered.items, options.signal)).map(escapedItem);
    return items.length > 0 ? { ...offered, items } : null;
  }

  applyCompletion(
    lines: string[],
    cursorLine: number,
    cursorCol: number,
    item: AutocompleteItem,
    prefix: string,
  ): { lines: string[]; cursorLine: number; cursorCol: number } {
    if (prefix.startsWith("@") && /^@[A-Za-z0-9_-]+:$/.test(item.value)) {
      // A server: no space after it, so its resources come next.
      const line = lines[cursorLine] ?? "";
      const start = cursorCol - prefix.length;
      const out = [...lines];
      out[cursorLine] = `${line.slice(0, start)}${item.value}${line.slice(cursorCol)}`;
      return { lines: out, cursorLine, cursorCol: start + item.value.length };
    }
    return this.base.applyCompletion(lines, cursorLine, cursorCol, item, prefix);
  }

  shouldTriggerFileCompletion(lines: string[], cursorLine: number, cursorCol: number): boolean {
    return this.base.shouldTriggerFileCompletion(lines, cursorLine, cursorCol);
  }
}

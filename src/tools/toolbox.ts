// The tools of one session, composed from its ToolSources (source.ts): opened together, merged
// in source order (on a name clash the earlier source's tool wins and one notice says so), and
// offered as a snapshot that changes only at a turn boundary (`beginTurn`), so every request
// of a turn carries the same tools. `prepare` parses and validates a call's arguments, once.
import { errorMessage } from "../errors.ts";
import type { JsonValue, Payload } from "../session/events.ts";
import { isPresentedTool, type ToolPresenter } from "./presentation.ts";
import { builtinPresenter } from "./presenters.ts";
import type { OpenToolSource, ToolNotice, ToolSource, ToolSourceContext } from "./source.ts";
import type { Tool, ToolOutputContext } from "./types.ts";

/** A tool as the model sees it (the shape of the providers' ToolSpec). */
export interface ToolSpecification {
  name: string;
  description: string;
  inputSchema: Record<string, JsonValue>;
}

/** A call after `prepare`: its tool, the JSON arguments and their parsed value; or why not. */
export type PreparedArguments =
  | { ok: true; tool: Tool; args: JsonValue; parsed: unknown }
  | { ok: false; args: JsonValue; reason: string };

/** What `beginTurn` records as `tools/changed`, less the turn. */
export type ToolListChange = Omit<Payload<"tools/changed">, "turn">;

interface Offered {
  tool: Tool;
  source: string;
}

interface Snapshot {
  byName: Map<string, Offered>;
  specs: ToolSpecification[];
}

export interface ToolboxOptions {
  sources: readonly ToolSource[];
  /** Everything a source needs but its own callbacks. */
  context: Omit<ToolSourceContext, "listChanged" | "notice">;
  output: ToolOutputContext;
  /** Receives every notice: the sources' own and the toolbox's name clashes. */
  onNotice(notice: ToolNotice): void;
  /** Offer only the tools of these names (a custom agent's `tools`); absent: all. */
  only?: readonly string[];
}

export class Toolbox {
  private current: Snapshot;
  private dirty = false;
  private readonly reported = new Set<string>();

  private constructor(
    private readonly opened: ReadonlyArray<{ name: string; source: OpenToolSource }>,
    readonly output: ToolOutputContext,
    private readonly onNotice: (notice: ToolNotice) => void,
    private readonly only: ReadonlySet<string> | null,
  ) {
    this.current = this.merge();
  }

  /** Opens every source concurrently; if one rejects, the others are disposed. */
  static async open(options: ToolboxOptions): Promise<Toolbox> {
    let box: Toolbox | undefined;
    const context: ToolSourceContext = {
      ...options.context,
      listChanged: () => box?.markDirty(),
      notice: (notice) => options.onNotice(notice),
    };
    const settled = await Promise.allSettled(options.sources.map((source) => source.open(context)));
    const failure = settled.find((result) => result.status === "rejected");
    const opened = settled.flatMap((result, index) =>
      result.status === "fulfilled"
        ? [{ name: options.sources[index]?.name ?? "?", source: result.value }]
        : [],
    );
    if (failure) {
      await Promise.all(opened.map(({ source }) => source.dispose()));
      throw failure.reason;
    }
    for (const { source } of opened) for (const notice of source.notices) options.onNotice(notice);
    const only = options.only ? new Set(options.only) : null;
    box = new Toolbox(opened, options.output, options.onNotice, only);
    return box;
  }

  /** The tool of this turn named `name`. */
  get(name: string): Tool | undefined {
    return this.current.byName.get(name)?.tool;
  }

  /**
   * How calls of `name` are shown, for every surface: a built-in's static presenter, else this
   * session's tool's own (an external command tool's), else none (the plain fallback).
   */
  readonly presenter = (name: string): ToolPresenter | undefined => {
    const tool = this.get(name);
    return builtinPresenter(name) ?? (tool && isPresentedTool(tool) ? tool : undefined);
  };

  names(): string[] {
    return [...this.current.byName.keys()];
  }

  /** The specs every request of this turn carries. */
  specs(): ToolSpecification[] {
    return this.current.specs;
  }

  /** Parses the model's raw JSON arguments and validates them against the tool's input. */
  prepare(name: string, rawArguments: string): PreparedArguments {
    const args = parseToolArguments(rawArguments);
    const tool = this.get(name);
    if (!tool) {
      const known = this.names();
      const offer = known.length > 0 ? `available tools: ${known.join(", ")}` : "no tools";
      return { ok: false, args: args.value, reason: `unknown tool "${name}" (${offer})` };
    }
    if (!args.ok)
      return { ok: false, args: args.value, reason: `invalid arguments: ${args.error}` };
    const checked = tool.input.check(args.value);
    if (!checked.ok) {
      return {
        ok: false,
        args: args.value,
        reason: `invalid arguments: ${checked.issues.join("; ")}`,
      };
    }
    return { ok: true, tool, args: args.value, parsed: checked.value };
  }

  /**
   * At a turn boundary: takes in the lists sources changed since the last one. Returns what
   * changed (to record as `tools/changed`), or null when the tools stay as they were.
   */
  beginTurn(): ToolListChange | null {
    if (!this.dirty) return null;
    this.dirty = false;
    const before = this.current;
    const after = this.merge();
    const change = difference(before, after);
    this.current = after;
    return change;
  }

  /** Disposes every source; never rejects. */
  async dispose(): Promise<void> {
    await Promise.all(this.opened.map(({ source }) => source.dispose().catch(() => {})));
  }

  private markDirty(): void {
    this.dirty = true;
  }

  /** Every source's tools in source order; a name already taken is left out, with a notice. */
  private merge(): Snapshot {
    const byName = new Map<string, Offered>();
    for (const { name, source } of this.opened) {
      for (const tool of this.toolsOf(name, source)) {
        if (this.only && !this.only.has(tool.name)) continue;
        const taken = byName.get(tool.name);
        if (taken) this.clash(tool.name, name, taken.source);
        else byName.set(tool.name, { tool, source: name });
      }
    }
    const specs = [...byName.values()].map(({ tool }) => ({
      name: tool.name,
      description: tool.description,
      inputSchema: tool.input.jsonSchema(),
    }));
    return { byName, specs };
  }

  /** A source's list; one that throws offers nothing this turn, with a notice. */
  private toolsOf(name: string, source: OpenToolSource): readonly Tool[] {
    try {
      return source.tools();
    } catch (error) {
      const detail = errorMessage(error);
      this.onNotice({
        message: `tool source ${name} failed to list its tools: ${detail}`,
        level: "tools",
      });
      return [];
    }
  }

  private clash(tool: string, loser: string, winner: string): void {
    const key = `${loser}\u0000${tool}`;
    if (this.reported.has(key)) return;
    this.reported.add(key);
    const message = `tool "${tool}" from ${loser} is not offered: ${winner} has a tool of that name`;
    this.onNotice({ message, level: "tools" });
  }
}

function difference(before: Snapshot, after: Snapshot): ToolListChange | null {
  const added: string[] = [];
  const changed: string[] = [];
  for (const [name, { tool }] of after.byName) {
    const old = before.byName.get(name)?.tool;
    if (!old) added.push(name);
    else if (!sameTool(old, tool)) changed.push(name);
  }
  const removed = [...before.byName.keys()].filter((name) => !after.byName.has(name));
  const reordered = [...before.byName.keys()].join("\n") !== [...after.byName.keys()].join("\n");
  if (added.length + removed.length + changed.length === 0 && !reordered) return null;
  const tools = [...after.byName.values()].map(({ tool, source }) => ({
    name: tool.name,
    source,
    kind: tool.kind,
  }));
  return { tools, added, removed, changed };
}

function sameTool(a: Tool, b: Tool): boolean {
  return (
    a.description === b.description &&
    a.kind === b.kind &&
    JSON.stringify(a.input.jsonSchema()) === JSON.stringify(b.input.jsonSchema())
  );
}

/** A call's raw arguments as JSON (empty: `{}`); text that is not JSON is kept as a string. */
export function parseToolArguments(
  raw: string,
): { ok: true; value: JsonValue } | { ok: false; value: JsonValue; error: string } {
  if (raw.trim() === "") return { ok: true, value: {} };
  try {
    return { ok: true, value: JSON.parse(raw) as JsonValue };
  } catch (error) {
    const detail = errorMessage(error);
    return { ok: false, value: raw, error: `not valid JSON (${detail})` };
  }
}

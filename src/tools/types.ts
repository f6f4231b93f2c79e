// The tool interface: a name, the description the model reads, one ToolKind, its input (a
// ToolInput over a zod schema or a JSON Schema) and `run`, which defineTool (define-tool.ts)
// builds around the tool's own `execute` so every result goes through the output policy. The
// toolbox (toolbox.ts) validates arguments once; the agent loop records calls and results.
import type { OutputPolicy, ProxiedConnection, SpillScope } from "../runner/index.ts";
import type { JsonValue, Payload, ToolKind } from "../session/events.ts";

export type { ToolKind };

/** Where a session's tool output goes through the policy: per-tool budgets and the spill scope. */
export interface ToolOutputContext {
  /** The effective output policy of one tool (`[output]` with its per-tool overrides). */
  policy(toolName: string): OutputPolicy;
  spill: SpillScope | null;
}

/** The files a call may change: their absolute paths, none (`[]`), or undefined: not known. */
type Changes = readonly string[] | undefined;

/** What a running tool may know about its call. */
export interface ToolContext {
  /** Aborted when the user cancels; a tool should stop promptly and return. */
  signal: AbortSignal;
  /** The session's working directory. */
  cwd: string;
  sessionId: string;
  /** The id the model gave this call. */
  callId: string;
  /** The output policy `run` applies to the tool's result. */
  output: ToolOutputContext;
  /**
   * Reports progress while the call runs (a command's output tail, an MCP server's progress
   * notification). Transient: surfaces show it live, the log never records it; the result is
   * the durable fact. Text passed here must already be through the output policy (stripped
   * and redacted). The agent puts each report on the bus as `tool/progress`.
   */
  progress?: (update: ToolProgress) => void;
  /**
   * A command this call started in the OS sandbox asked its proxy for a connection, which was
   * allowed or refused (`[sandbox.network] allow`). The agent records each as
   * `sandbox/connection`; it may come after the call's result (a background command).
   */
  connection?: (connection: ProxiedConnection) => void;
  /** Run outside the OS sandbox: the user allowed "run again outside the sandbox". */
  outsideSandbox?: boolean;
}

/** One progress report of a running tool call (see ToolContext.progress). */
export interface ToolProgress {
  /** The newest output, policy-processed (stripped, redacted), at most a few KiB. */
  tail?: string;
  /** A one-line status, e.g. an MCP progress notification's message. */
  message?: string;
  /** Work done so far and, when known, the total (MCP's progress/total). */
  progress?: number;
  total?: number;
}

/** An image a tool result carries besides its text (an MCP image block or a `read` image file). */
export interface ToolImage {
  /** image/png, image/jpeg, image/gif or image/webp. */
  mimeType: string;
  /** The image as base64. */
  data: string;
  /** Its decoded size. */
  bytes: number;
  /**
   * Set by the `read` tool: the image is stored beside the session log by its SHA-256 and the
   * `tool/result` names it (`images`), instead of holding its base64 (`blocks`).
   */
  stored?: true;
}

/** What a tool returns; the output policy fills the byte counts and spill fields. */
export interface ToolResult {
  /** Exactly what the model sees as text (each image is described in it too). */
  content: string;
  /**
   * Images passed to models that take them, after the text; the output policy bounds the
   * text only (the tool bounded these). A model without image input reads the text alone.
   */
  images?: ToolImage[];
  isError?: boolean;
  originalBytes?: number;
  deliveredBytes?: number;
  truncated?: boolean;
  spillPath?: string | null;
  policyErrors?: string[];
  /** The OS sandbox the command ran under (bash), recorded on `tool/result`. */
  sandbox?: Payload<"tool/result">["sandbox"];
  /**
   * What the OS sandbox refused the command (a write, a connection), one phrase: the agent then
   * offers to run the call again outside the sandbox (agent/sandbox-escalation.ts).
   */
  sandboxRefused?: string;
  /** The whole todo list the call set (`todo_write`): the loop records it as `todo/update`. */
  todos?: Payload<"todo/update">["todos"];
  /** The subagent session the call ran (`task`), recorded on `tool/result.child`. */
  child?: Payload<"tool/result">["child"];
}

/** A result after the output policy, as `run` hands it to the loop. */
export interface DeliveredResult extends ToolResult {
  originalBytes: number;
  deliveredBytes: number;
  truncated: boolean;
  spillPath: string | null;
  policyErrors: string[];
  /**
   * True when the tool applied the policy itself as its output streamed (bash, a command tool):
   * after a cancel, what it printed before it stopped is kept in the result.
   */
  streamed: boolean;
}

/** The outcome of validating one call's arguments: the parsed value, or every problem. */
export type InputCheck<Args = unknown> =
  | { ok: true; value: Args }
  | { ok: false; issues: string[] };

/**
 * A tool's input, however it is declared (zod for the built-ins, JSON Schema for MCP tools):
 * the schema the model reads and the one validation the loop runs on each call.
 */
export interface ToolInput<Args = unknown> {
  /** The JSON Schema sent to the model, without `$schema`. */
  jsonSchema(): Record<string, JsonValue>;
  /** Validates JSON arguments; each issue is `path: message` (`(root)` for the object). */
  check(value: JsonValue): InputCheck<Args>;
}

/** What a tool author writes; defineTool turns it into a Tool. */
export interface ToolSpec<Args> {
  name: string;
  /** The model-facing description; keep it short, it is sent with every request. */
  description: string;
  /** True when the tool never changes anything outside the session. */
  readOnly: boolean;
  input: ToolInput<Args>;
  /**
   * True when calls of this tool may run at the same time as the other such calls next to it
   * in one assistant message (`task`: subagents run side by side, up to `[subagents]
   * max_concurrent`). Default false: calls run one after another, in order.
   */
  concurrent?: boolean;
  /**
   * The files a call with these arguments may change, when the tool knows them: none (`[]`: a
   * bash command of programs that only read) or the absolute paths it writes (`write`,
   * `edit`). Absent or undefined: not known, so the call's checkpoint compares the whole
   * workspace (call-checkpoints.ts). A promise when the answer waits for something loaded on
   * first need (bash: its parser); answer synchronously whenever it does not.
   */
  changes?(args: Args): Changes | Promise<Changes>;
  /** Gets arguments `input.check` accepted; may return raw text: `run` polices it. */
  execute(args: Args, ctx: ToolContext): Promise<ToolResult>;
}

/** A type brand only defineTool sets: an object literal cannot pass for a Tool (and skip its policy). */
declare const madeByDefineTool: unique symbol;

/** A tool as sources offer it and the toolbox stores it (its argument type erased). */
export interface Tool {
  readonly [madeByDefineTool]: true;
  readonly name: string;
  readonly description: string;
  /** What the tool does; permissions, presentation and ACP read this one field. */
  readonly kind: ToolKind;
  readonly readOnly: boolean;
  readonly input: ToolInput<unknown>;
  /** May run alongside its neighbours in one message (ToolSpec.concurrent). */
  readonly concurrent?: boolean;
  /** The files a call with these arguments may change, when known (ToolSpec.changes). */
  changes?(args: unknown): Changes | Promise<Changes>;
  /**
   * Executes with arguments `input.check` returned (never raw model JSON) and puts the result
   * through the output policy (strip, redact, bound, spill) unless the tool already did.
   */
  run(args: unknown, ctx: ToolContext): Promise<DeliveredResult>;
}

/** A tool without its brand: what defineTool builds before it brands it. */
export type UnbrandedTool = Omit<Tool, typeof madeByDefineTool>;

/** The name the loop and tests have always used for a stored tool. */
export type AnyTool = Tool;

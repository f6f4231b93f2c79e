// The shape of codewhale's config: one zod schema per section, strict (unknown keys are errors)
// with defaults applied. `configSchema` is the effective config every layer reads;
// `configFileSchema` validates one file or the flags alone, where a provider may omit `kind`.
import * as z from "zod";

export const PROVIDER_KINDS = ["anthropic", "openai-chat", "openai-responses"] as const;
export const PERMISSION_MODES = ["default", "accept-edits", "plan", "bypass"] as const;
export const HOOK_EVENTS = [
  "SessionStart",
  "UserPromptSubmit",
  "PreToolUse",
  "PostToolUse",
  "Stop",
  "PreCompact",
  "SessionEnd",
  "Notification",
] as const;
const NOTIFICATION_CHANNELS = ["auto", "osc9", "osc777", "bel", "off"] as const;
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];
export const DEFAULT_MODEL = "anthropic/claude-sonnet-4-6";
/** `thinking.effort`: the words of session/events.ts's `EFFORT_LEVELS` (config imports nothing). */
export const EFFORT_LEVELS = ["off", "minimal", "low", "medium", "high"] as const;

const modelId = z.string().regex(/^[^/\s]+\/\S+$/, { error: 'expected "provider/model"' });
const count = z.number().int().nonnegative();
const positiveInt = z.number().int().positive();
const price = z.number().nonnegative();
const stringMap = z.record(z.string(), z.string());
const stringList = z.array(z.string());

const providerFields = {
  kind: z.enum(PROVIDER_KINDS),
  base_url: z.url().optional(),
  /** Name of the environment variable holding the key, never the key itself. */
  api_key_env: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, { error: "expected an env var name" })
    .optional(),
  headers: stringMap.optional(),
  /**
   * Azure OpenAI's `api-version`: set, the client speaks Azure's routes (the model is the
   * deployment: `/openai/deployments/<model>/…?api-version=…`) with an `api-key` header.
   */
  api_version: z.string().min(1).optional(),
  /**
   * Claude on a cloud platform, through Anthropic's SDK for it (kind `anthropic`): `bedrock`
   * (AWS credentials and region) or `vertex` (Google credentials, region and project).
   */
  platform: z.enum(["bedrock", "vertex"]).optional(),
  /** The platform's region (Bedrock: `AWS_REGION`; Vertex: `CLOUD_ML_REGION`). */
  region: z.string().min(1).optional(),
  /** Vertex's Google Cloud project (`ANTHROPIC_VERTEX_PROJECT_ID`). */
  project_id: z.string().min(1).optional(),
};
const providerSchema = z.strictObject(providerFields);
const providerFileSchema = z.strictObject({
  ...providerFields,
  kind: providerFields.kind.optional(),
});

const modelInfoSchema = z.strictObject({
  context_window: positiveInt.optional(),
  input_price: price.optional(),
  output_price: price.optional(),
  cache_read_price: price.optional(),
  cache_write_price: price.optional(),
  /** This model's `[compaction] threshold`. */
  compaction_threshold: z.number().min(0.1).max(1).optional(),
  /** Whether the model takes images (MCP tool results' image blocks). */
  images: z.boolean().optional(),
});

const retrySchema = z.strictObject({
  max_retries: count.default(6),
  initial_delay_ms: count.default(500),
  max_delay_ms: count.default(8000),
  budget_ms: count.default(30000),
  /** A request that receives nothing for this long fails and is retried; 0 turns it off. */
  stream_idle_timeout_ms: count.default(300000),
});

const toolOutputSchema = z.strictObject({
  max_bytes: positiveInt.optional(),
  spill_to_temp: z.boolean().optional(),
  redact_secrets: z.boolean().optional(),
  gcf: z.boolean().optional(),
});

const outputSchema = z.strictObject({
  max_bytes: positiveInt.default(30000),
  spill_to_temp: z.boolean().default(true),
  redact_secrets: z.boolean().default(true),
  gcf: z.boolean().default(false),
  /** The terminal cursor-moving output is rendered in: 0 columns means no wrap (a pipe). */
  terminal_cols: z
    .number()
    .int()
    .refine((cols) => cols === 0 || (cols >= 20 && cols <= 1000), {
      message: "expected 0 (no wrap) or a width from 20 to 1000",
    })
    .default(0),
  terminal_rows: z.number().int().min(2).max(500).default(24),
  /** Per-tool overrides of max_bytes, spill_to_temp, redact_secrets and gcf, keyed by tool name. */
  tools: z.record(z.string(), toolOutputSchema).prefault({}),
});

/** `[sandbox]`: the OS sandbox the bash tool's commands run in (docs/sandbox.md). */
const sandboxSchema = z.strictObject({
  mode: z.enum(["workspace-write", "read-only", "off"]).default("workspace-write"),
  /** More directories writable in `workspace-write`, besides the workspace and the temp dir. */
  writable: z.array(z.string().trim().min(1)).default([]),
  /** More paths hidden from commands, besides ~/.ssh, ~/.aws, ~/.config/gcloud and others. */
  deny_read: z.array(z.string().trim().min(1)).default([]),
  /**
   * `off`, `on`, or `[sandbox.network] allow = [hosts]`: only those hosts, through the proxy
   * (exact names, `*.example.com` for any name under it).
   */
  network: z
    .union([
      z.enum(["off", "on"]),
      z.strictObject({
        allow: z.array(
          z
            .string()
            .trim()
            .regex(/^(\*\.)?[A-Za-z0-9_.:-]+$/, "expected a host name, or *.domain"),
        ),
      }),
    ])
    .default("off"),
  /** Hook commands: `inside` the sandbox (with the network on) or `outside` it, unconfined. */
  hooks: z.enum(["inside", "outside"]).default("inside"),
  /** MCP stdio servers: `inside` the sandbox (with the network on) or `outside` it. */
  mcp_servers: z.enum(["inside", "outside"]).default("inside"),
  /** Where bubblewrap cannot run: ask (today: refuse, with the notice), run unconfined, refuse. */
  fallback: z.enum(["ask", "off", "refuse"]).default("ask"),
});

/** `[web.search]`: web_search (docs/web.md). */
const webSearchSchema = z.strictObject({
  /** Searches one session may make: the provider's own tool and the backend's together. */
  max_per_session: count.default(20),
  /** Use the provider's own search tool where it has one (Anthropic, OpenAI Responses). */
  provider_tool: z.boolean().default(true),
  /** A SearXNG instance (its JSON API): the search for providers without a tool of their own. */
  searxng_url: z.url({ protocol: /^https?$/ }).optional(),
});

const permissionsSchema = z.strictObject({
  mode: z.enum(PERMISSION_MODES).default("default"),
  allow: stringList.default([]),
  ask: stringList.default([]),
  deny: stringList.default([]),
  /**
   * Built-in protected files (and files configured commands run) that edits may change like any
   * other, in permission-rule path syntax (permissions/protected.ts). User file only.
   */
  unprotect: z.array(z.string().trim().min(1)).default([]),
});

const hookSchema = z.strictObject({
  matcher: z.string().optional(),
  command: z.string().min(1),
  timeout_ms: positiveInt.optional(),
  on_error: z.enum(["allow", "deny"]).optional(),
  /** Credential variables of the session this hook still gets (docs/hooks.md#environment). */
  env_allow: stringList.optional(),
});
const hookList = z.array(hookSchema).default([]);
const hooksSchema = z.strictObject({
  SessionStart: hookList,
  UserPromptSubmit: hookList,
  PreToolUse: hookList,
  PostToolUse: hookList,
  Stop: hookList,
  PreCompact: hookList,
  SessionEnd: hookList,
  Notification: hookList,
});

/** Compacting the history before it outgrows the model's window (docs/compaction.md). */
const compactionSchema = z.strictObject({
  /** false: never compact automatically (`/compact` and `exec --compact` still do). */
  enabled: z.boolean().default(true),
  /** Compact before a request whose estimated input passes this share of the window. */
  threshold: z.number().min(0.1).max(1).default(0.8),
  /** The model that writes the summary (default: the session's). */
  model: modelId.optional(),
});

/** Checkpoints of the workspace and rewind (docs/rewind.md). */
const checkpointsSchema = z.strictObject({
  /** false: take no checkpoints (rewinding code then has nothing to go back to). */
  enabled: z.boolean().default(true),
  /** A larger file is noted in the checkpoint, not stored. */
  max_file_bytes: positiveInt.default(10 * 1024 * 1024),
  /** Once one checkpoint has stored this much, the rest is noted, not stored. */
  max_checkpoint_bytes: positiveInt.default(200 * 1024 * 1024),
  /** `sessions prune` removes the checkpoints of sessions inactive this many days. */
  keep_days: positiveInt.default(30),
});

const externalToolSchema = z.strictObject({
  name: z.string().regex(/^[A-Za-z0-9_-]+$/, { error: "expected letters, digits, _ or -" }),
  description: z.string(),
  command: z.array(z.string()).min(1),
  /** JSON-schema-like description of the tool's input. */
  arguments: z.record(z.string(), z.json()).optional(),
  env: stringMap.default({}),
  /** Credential variables of the session this tool's command still gets. */
  env_allow: stringList.optional(),
});

/**
 * A server name: letters, digits, `-` and single `_` (never `__`, which separates the parts of
 * an MCP tool's name `mcp__SERVER__TOOL`, so `mcp__a__*` can never reach server `a__b`).
 */
export const MCP_SERVER_NAME = /^[A-Za-z0-9-]+(?:_[A-Za-z0-9-]+)*$/;

/**
 * One MCP server: stdio (`command`, `args`, `env`, `cwd`) or streamable HTTP (`url`,
 * `headers`); `${VAR}` in env values, the url and header values is taken from the environment.
 */
const mcpServerSchema = z
  .strictObject({
    command: z.string().min(1).optional(),
    args: stringList.default([]),
    env: stringMap.default({}),
    /** Credential variables of the session a stdio server still gets (docs/mcp.md). */
    env_allow: stringList.optional(),
    cwd: z.string().min(1).optional(),
    url: z.url({ protocol: /^https?$/ }).optional(),
    headers: stringMap.default({}),
    enabled: z.boolean().default(true),
    startup_timeout_ms: positiveInt.default(30000),
    tool_timeout_ms: positiveInt.default(600000),
    /** Only these tools (their MCP names) are offered; absent: all. */
    include_tools: stringList.optional(),
    exclude_tools: stringList.default([]),
  })
  .refine((server) => (server.command === undefined) !== (server.url === undefined), {
    error: "set exactly one of command (a stdio server) or url (a streamable HTTP server)",
  });

/** A trust record: the project root and the fingerprint of the settings the user trusted. */
const trustEntrySchema = z.strictObject({
  path: z.string().min(1),
  fingerprint: z.string().regex(/^sha256:[0-9a-f]{64}$/, { error: 'expected "sha256:<64 hex>"' }),
  /** The grant files the fingerprint covers, by path relative to the root, and their digests. */
  files: z.record(z.string(), z.string()).optional(),
});

/**
 * The merged config's `models`: every layer's table was checked against `modelInfoSchema` on
 * its own (files and flags; the built-ins set none), and merging such tables key by key cannot
 * make one invalid (every field is optional, none depends on another, none is transformed), so
 * the merged record is only checked to be a table of tables, not validated a second time; and
 * load.ts's check of the merge (merged-check.ts) takes the table as it is, not walking it at
 * all. A 25,000-model config then costs one validation, not two.
 */
const mergedModelsSchema = z.record(
  z.string(),
  z.custom<z.output<typeof modelInfoSchema>>(isRecord),
);

function isRecord(value: unknown): boolean {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function buildConfigSchema<P extends z.ZodType, M extends z.ZodType>(provider: P, models: M) {
  return z.strictObject({
    model: modelId.default(DEFAULT_MODEL),
    max_steps: positiveInt.default(50),
    session_dir: z.string().optional(),
    system_prompt_file: z.string().optional(),
    max_budget_usd: z.number().positive().optional(),
    providers: z.record(z.string(), provider).prefault({}),
    models: models.prefault({} as z.input<M>),
    thinking: z
      .strictObject({
        budget_tokens: positiveInt.optional(),
        /** The reasoning effort of each request; set, it decides over `budget_tokens`. */
        effort: z.enum(EFFORT_LEVELS).optional(),
      })
      .prefault({}),
    retry: retrySchema.prefault({}),
    output: outputSchema.prefault({}),
    /** How the surfaces show a session; display only, the log and the requests never change. */
    display: z
      .strictObject({
        show_thinking: z.boolean().default(false),
        /** A command whose first line of output is the terminal's status line (docs/terminal.md). */
        status_line: z.string().trim().min(1).optional(),
        /** How the terminal tells an unfocused user a turn ended or an ask waits. */
        notifications: z.enum(NOTIFICATION_CHANNELS).default("auto"),
        /**
         * How long the terminal's prompt waits for input after a turn before the Notification
         * hooks hear `idle_prompt`; 0: never. At most 2^31 - 1 (about 24 days): Node fires a
         * longer timer at once.
         */
        idle_prompt_ms: count.max(2 ** 31 - 1).default(60_000),
        /** The terminal's colours: its own ANSI palette (`auto`), or fixed ones for a background. */
        theme: z.enum(["auto", "dark", "light"]).default("auto"),
        /** The terminal's editor: as it is, or with vim's normal and insert modes. */
        editor_mode: z.enum(["default", "vim"]).default("default"),
      })
      .prefault({}),
    permissions: permissionsSchema.prefault({}),
    sandbox: sandboxSchema.prefault({}),
    hooks: hooksSchema.prefault({}),
    compaction: compactionSchema.prefault({}),
    /** The model's `session_search` tool over past sessions (docs/search.md). */
    search: z
      .strictObject({ scope: z.enum(["project", "all", "off"]).default("project") })
      .prefault({}),
    /** Subagents run by the `task` tool (docs/subagents.md). */
    subagents: z.strictObject({ max_concurrent: positiveInt.default(4) }).prefault({}),
    checkpoints: checkpointsSchema.prefault({}),
    /** Fetching and searching the web (docs/web.md). */
    web: z.strictObject({ search: webSearchSchema.prefault({}) }).prefault({}),
    tools: z.strictObject({ external: z.array(externalToolSchema).default([]) }).prefault({}),
    /** MCP servers whose tools the session offers as `mcp__SERVER__TOOL` (docs/mcp.md). */
    mcp_servers: z
      .record(
        z.string().regex(MCP_SERVER_NAME, {
          error: "expected letters, digits, - or single _ (no __)",
        }),
        mcpServerSchema,
      )
      .default({}),
    /**
     * Projects whose `.codewhale/config.toml` settings that need trust apply, each with the
     * fingerprint of what was trusted; a bare path is an entry from before fingerprints, which
     * counts as changed. User file only.
     */
    trusted_projects: z.array(z.union([z.string(), trustEntrySchema])).default([]),
    /**
     * Directories outside a project from which the project may take its system prompt file or
     * instruction files (an AGENTS.md that is a link). User file only.
     */
    allowed_prompt_dirs: stringList.default([]),
    /** More files whose edits always ask (permissions/protected.ts). User file only. */
    protected_paths: z.array(z.string().trim().min(1)).default([]),
  });
}

/**
 * How the config schemas parse: a config is parsed once a run, so without zod's fast path for
 * objects, which on an object schema's first parse generates a parser with `new Function`; for
 * one parse that costs more than it saves (most of the config check before the first frame).
 * The same checks and issues either way.
 */
export const ONE_PARSE = { jitless: true } as const;

/** The effective config: every file, flag and default merged, then validated. */
export const configSchema = buildConfigSchema(providerSchema, mergedModelsSchema);
/** One file (or the flags) on its own; a provider may rely on a built-in `kind`. */
export const configFileSchema = buildConfigSchema(
  providerFileSchema,
  z.record(modelId, modelInfoSchema),
);

export type Config = z.output<typeof configSchema>;
export type ProviderConfig = z.output<typeof providerSchema>;
export type ProviderKind = (typeof PROVIDER_KINDS)[number];
export type PermissionMode = (typeof PERMISSION_MODES)[number];
export type HookEvent = (typeof HOOK_EVENTS)[number];
export type HookConfig = z.output<typeof hookSchema>;
export type ExternalToolConfig = z.output<typeof externalToolSchema>;
export type McpServerConfig = z.output<typeof mcpServerSchema>;
export type TrustEntry = z.output<typeof trustEntrySchema>;
export type ModelInfoOverride = z.output<typeof modelInfoSchema>;
export type ToolOutputOverride = z.output<typeof toolOutputSchema>;
/** A partial config as written in a file or passed as flags. */
export type ConfigInput = z.input<typeof configFileSchema>;

/**
 * One MCP server from outside the config files (an editor's `mcpServers` over ACP), checked
 * and given its defaults as `[mcp_servers.NAME]` would be: the server, or the first problem.
 */
export function parseMcpServer(
  input: unknown,
): { ok: true; server: McpServerConfig } | { ok: false; problem: string } {
  const parsed = mcpServerSchema.safeParse(input);
  if (parsed.success) return { ok: true, server: parsed.data };
  const issue = parsed.error.issues[0];
  const at = issue?.path.length ? `${issue.path.join(".")}: ` : "";
  return { ok: false, problem: `${at}${issue?.message ?? "invalid"}` };
}

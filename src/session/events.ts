// Every durable session event, in one discriminated union. This file is the protocol: the
// store writes these, every reader (derive, exports, the UIs, the ACP bridge) consumes them,
// and nobody defines an event anywhere else. Types and the runtime validator come from the
// same zod definitions. Field names are snake_case because they are the wire format.
import * as z from "zod";

/** Schema version written on every line as `v`. Bump it only with a migration. */
export const SESSION_SCHEMA_VERSION = 1;

const json = z.json();
export type JsonValue = z.infer<typeof json>;

/**
 * The reasoning effort levels, from none to the most (`session/effort`); the config's
 * `thinking.effort` takes the same words (config/schema.ts, which imports nothing of ours).
 */
export const EFFORT_LEVELS = ["off", "minimal", "low", "medium", "high"] as const;
export type Effort = (typeof EFFORT_LEVELS)[number];

const turnStep = { turn: z.number().int().nonnegative(), step: z.number().int().nonnegative() };

/** Token counts of one provider request; absent counts are 0. */
export const usageSchema = z.object({
  input: z.number().int().nonnegative(),
  output: z.number().int().nonnegative(),
  cache_read: z.number().int().nonnegative(),
  cache_write: z.number().int().nonnegative(),
  reasoning: z.number().int().nonnegative(),
});
export type Usage = z.infer<typeof usageSchema>;

/** A fresh all-zero Usage, to add a request's counts to. */
export function zeroUsage(): Usage {
  return { input: 0, output: 0, cache_read: 0, cache_write: 0, reasoning: 0 };
}

/** Who decided whether a tool call runs, and how. */
export const toolDecisionSchema = z.object({
  outcome: z.enum(["allow", "deny", "ask"]),
  by: z.enum(["default", "mode", "rule", "hook", "user", "plugin"]),
  reason: z.string().optional(),
  rule: z.string().optional(),
});
export type ToolDecision = z.infer<typeof toolDecisionSchema>;

/**
 * What a tool does, declared once by each tool (ACP's tool kinds): permissions, presentation
 * and the ACP bridge all read this one field. `edit` changes files, `execute` runs commands.
 */
export const toolKindSchema = z.enum([
  "read",
  "edit",
  "delete",
  "move",
  "search",
  "execute",
  "fetch",
  "think",
  "other",
]);
export type ToolKind = z.infer<typeof toolKindSchema>;

/**
 * One file in a checkpoint: its workspace path (`/`-separated), its content hash (a git blob id
 * in the checkpoint store; null when the file is gone), its mode (`0o100644`, `0o100755`,
 * `0o120000` for a symlink, or exact permission bits), size and whether it looks binary.
 */
const checkpointFile = z.object({
  path: z.string(),
  hash: z.string().nullable(),
  mode: z.number().int().nonnegative().optional(),
  bytes: z.number().int().nonnegative().optional(),
  binary: z.literal(true).optional(),
});

/** A file a checkpoint did not capture, and why (docs/rewind.md, "Limits"). */
const skippedFile = z.object({
  path: z.string(),
  reason: z.enum([
    "too_large",
    "checkpoint_limit",
    "nested_repository",
    "not_a_file",
    "unreadable",
  ]),
  bytes: z.number().int().nonnegative().optional(),
});

/**
 * Images stored once beside the log, each by its SHA-256 (hex), media type and size in bytes
 * (`<id>.images/<sha256>`, session/images.ts); an event names them, never holds their bytes.
 */
const storedImages = () =>
  z.array(
    z.object({
      sha256: z.string().regex(/^[0-9a-f]{64}$/),
      media_type: z.enum(["image/png", "image/jpeg", "image/gif", "image/webp"]),
      bytes: z.number().int().nonnegative(),
    }),
  );

/** A failed request attempt (`step/failed`, `compaction/failed`): what arrived, and what next. */
const failedAttempt = {
  error: z.string(),
  status: z.number().int().nullable().optional(),
  request_id: z.string().nullable().optional(),
  partial: z.array(
    z.object({
      block: z.number().int().nonnegative(),
      kind: z.enum(["text", "thinking", "tool_input"]),
      text: z.string(),
    }),
  ),
  will_retry: z.boolean(),
  /**
   * Set when `will_retry`: the wait before the next attempt, that attempt's number (1-based,
   * the first request being attempt 1) and how many attempts `[retry]` allows in all.
   */
  retry: z
    .object({
      delay_ms: z.number().int().nonnegative(),
      next_attempt: z.number().int().positive(),
      max_attempts: z.number().int().positive(),
    })
    .optional(),
};

/**
 * The payload of each event type, keyed by `type`, each made on first use (payloadSchemas).
 * One doc comment per type.
 */
const payloadDefinitions = {
  /**
   * First event of every session: where, with what, and (for a fork) from where. A subagent's
   * session (docs/subagents.md) names its parent session in `parent_session_id` and the
   * parent's `task` call that ran it in `parent_call_id` (added within v1).
   */
  "session/start": () =>
    z.object({
      session_id: z.string(),
      cwd: z.string(),
      version: z.string(),
      provider: z.string(),
      model: z.string(),
      /** SHA-256 of the effective config with secret-shaped values removed. */
      config_fingerprint: z.string(),
      parent_session_id: z.string().optional(),
      parent_seq: z.number().int().nonnegative().optional(),
      parent_call_id: z.string().optional(),
    }),
  /**
   * What the user typed to start a turn. Synced before any request is sent. `blocked` is set
   * when a UserPromptSubmit hook refused the prompt: it was never sent and replay skips it.
   */
  "user/message": () =>
    z.object({
      text: z.string(),
      blocked: z.object({ by: z.string(), reason: z.string() }).optional(),
      /**
       * The images the user attached, after the text (added within v1; absent when none): each
       * stored once beside the log, in `<id>.images/<sha256>` (session/images.ts), never in the
       * log itself; `sessions verify` checks every file against its hash.
       */
      images: storedImages().optional(),
    }),
  /** A message the user sent while a turn ran; reaches the model at the next step boundary. */
  "steering/message": () => z.object({ turn: z.number().int().nonnegative(), text: z.string() }),
  /** A turn begins; the preceding `user/message` is its input. */
  "turn/start": () => z.object({ turn: z.number().int().nonnegative() }),
  /** A turn ends, and why. `error` carries the one-line reason. */
  "turn/end": () =>
    z.object({
      turn: z.number().int().nonnegative(),
      reason: z.enum(["completed", "cancelled", "error", "max_steps", "max_budget"]),
      error: z.string().optional(),
    }),
  /** One model request begins. */
  "step/start": () => z.object({ ...turnStep, provider: z.string(), model: z.string() }),
  /**
   * Streamed deltas of one content block, in arrival order. Deltas handed over together (in
   * one burst from the network, before the event loop turns) share one event: `delta` is
   * their text joined and `parts` each one's length in UTF-16 code units (absent for a single
   * delta). `chunkDeltas` splits them again.
   */
  "assistant/chunk": () =>
    z.object({
      ...turnStep,
      block: z.number().int().nonnegative(),
      kind: z.enum(["text", "thinking", "tool_input"]),
      delta: z.string(),
      parts: z.array(z.number().int().nonnegative()).optional(),
    }),
  /**
   * The complete assistant message exactly as the provider returned it: `content` holds the
   * provider-native items verbatim (Anthropic content blocks with signed thinking; Responses
   * output items with encrypted reasoning; for Chat Completions, the one message object).
   * Replay uses these, never the chunks.
   */
  "assistant/message": () =>
    z.object({
      ...turnStep,
      provider: z.string(),
      model: z.string(),
      api: z.enum(["anthropic", "openai-chat", "openai-responses", "scripted"]),
      request_id: z.string().nullable(),
      stop_reason: z.string().nullable(),
      content: z.array(json),
    }),
  /** A request failed mid-way; the partial content is kept here and never replayed. */
  "step/failed": () => z.object({ ...turnStep, ...failedAttempt }),
  /** A request completed: its usage and cost in USD (null when the model's prices are unknown). */
  "step/end": () => z.object({ ...turnStep, usage: usageSchema, cost: z.number().nullable() }),
  /**
   * A tool call about to run (or refused), synced before any side effect. `arguments` are the
   * effective ones; `original_arguments` is set only when a hook or plugin rewrote them.
   */
  "tool/call": () =>
    z.object({
      ...turnStep,
      call_id: z.string(),
      name: z.string(),
      arguments: json,
      original_arguments: json.optional(),
      rewritten_by: z.string().optional(),
      rewrite_reason: z.string().optional(),
      decision: toolDecisionSchema,
    }),
  /** What a tool call returned, after the output policy. `content` is what the model sees. */
  "tool/result": () =>
    z.object({
      call_id: z.string(),
      content: z.string(),
      is_error: z.boolean(),
      original_bytes: z.number().int().nonnegative(),
      delivered_bytes: z.number().int().nonnegative(),
      truncated: z.boolean(),
      spill_path: z.string().nullable(),
      policy_errors: z.array(z.string()),
      /** Set when the call was never run to completion (cancelled, or interrupted by a crash). */
      interrupted: z.boolean().optional(),
      /**
       * The OS sandbox a command ran under (added within v1; set by the bash tool, absent for
       * tools that run no command): its mode (`none`: it ran unconfined, sandbox off or not
       * available with fallback off), its network, and the first 16 hex digits of the SHA-256 of
       * the resolved policy (docs/sandbox.md), absent for `none`.
       */
      sandbox: z
        .object({
          mode: z.enum(["workspace-write", "read-only", "none"]),
          network: z.enum(["off", "on"]),
          /**
           * With network `off`: the hosts reachable through the sandbox's proxy
           * (`[sandbox.network] allow`; added within v1, absent when none).
           */
          allow: z.array(z.string()).optional(),
          policy_hash: z.string().optional(),
          /**
           * Nested git repositories linked from the workspace's index (gitlinks) whose config
           * or hooks run a program, found after the command and not reported before in the
           * process (added within v1, absent when none): `sub: core.fsmonitor=./x`.
           * docs/sandbox.md, "Protected paths in the workspace".
           */
          nested_repos: z.array(z.string()).optional(),
        })
        .optional(),
      /**
       * Content blocks besides the text, in order (added within v1; absent when there are
       * none): images of an MCP result, base64 `data`, PNG, JPEG, GIF or WebP, each at most
       * 1 MiB decoded and at most four per result. `content` describes each one too
       * (`[image image/png, 12.0 KiB]`), which is what a model without image input reads and
       * what every view of the log shows; only requests to models that take images carry them.
       */
      blocks: z
        .array(
          z.object({
            type: z.literal("image"),
            mime_type: z.string(),
            data: z.string(),
            bytes: z.number().int().nonnegative(),
          }),
        )
        .optional(),
      /**
       * Images stored beside the log as a prompt's are (`user/message.images`; added within
       * v1, absent when none): the `read` tool's image files. `content` describes each one.
       */
      images: storedImages().optional(),
      /**
       * The subagent session a `task` call ran (added within v1; docs/subagents.md): its id,
       * and the `seq` and `h` of its last line when it closed, so the parent's chain vouches
       * for the child's log as it ended.
       */
      child: z
        .object({ session_id: z.string(), seq: z.number().int().nonnegative(), h: z.string() })
        .optional(),
    }),
  /**
   * A note for the model from outside the conversation: a hook's `additionalContext`, a
   * PostToolUse or Stop hook's block reason, a pre-execute listener's context. `source` names
   * what produced it (`hook:SessionStart`, `hook:UserPromptSubmit`, `hook:PreToolUse`,
   * `hook:PostToolUse`, `hook:Stop`, `plugin:<name>`, `user:shell` for a shell command the user
   * ran in the terminal with `!`: `$ <command>`, then its policed output and exit status;
   * `user:attach` for an MCP resource the user attached with `@server:uri`: that mention, a
   * newline, then the resource's policed text);
   * `call_id` the tool call it concerns.
   * Replay places it like steering: a user-role text at the next step boundary.
   */
  "context/note": () =>
    z.object({
      turn: z.number().int().nonnegative(),
      source: z.string(),
      call_id: z.string().optional(),
      text: z.string(),
    }),
  /**
   * The tools offered to the model changed (a source's list changed mid-session, e.g. an MCP
   * server's `list_changed`). Written at the start of turn `turn`, before its first request:
   * every request of that turn and later ones carry `tools`; a change that happens inside a
   * turn waits for the next one, so a turn's request prefix never changes. `tools` is the
   * whole list now offered, in order; `added`, `removed` and `changed` (same name, another
   * description or input schema) are relative to the list before. Not synced on its own: the
   * turn's next synced event (a `tool/call`, `step/end`) makes it durable, and a resumed
   * session lists its tools afresh.
   */
  "tools/changed": () =>
    z.object({
      turn: z.number().int().nonnegative(),
      tools: z.array(z.object({ name: z.string(), source: z.string(), kind: toolKindSchema })),
      added: z.array(z.string()),
      removed: z.array(z.string()),
      changed: z.array(z.string()),
    }),
  /**
   * A summarising request begins (docs/compaction.md): the history is about to be compacted,
   * `trigger` says why (`auto`: the next request would pass `[compaction] threshold` of the
   * window; `manual`: `/compact`, `exec --compact`, ACP). `turn` is the turn it runs in
   * (absent between turns). Its deltas follow as `compaction/chunk`, then `context/compaction`
   * on success or `compaction/failed` per failed attempt. Never replayed to the model.
   */
  "compaction/start": () =>
    z.object({
      turn: z.number().int().nonnegative().optional(),
      trigger: z.enum(["auto", "manual"]),
      provider: z.string(),
      model: z.string(),
      /** The estimated input of the history before compacting, in tokens. */
      tokens_before: z.number().int().nonnegative(),
    }),
  /**
   * Streamed deltas of the summarising request begun by the latest `compaction/start`,
   * coalesced as `assistant/chunk` is (`parts`); kept in a type of their own so no surface
   * mistakes the summary for the answer of a turn. Never replayed.
   */
  "compaction/chunk": () =>
    z.object({
      block: z.number().int().nonnegative(),
      kind: z.enum(["text", "thinking", "tool_input"]),
      delta: z.string(),
      parts: z.array(z.number().int().nonnegative()).optional(),
    }),
  /** An attempt at the summarising request failed (as `step/failed` for a step). Never replayed. */
  "compaction/failed": () => z.object(failedAttempt),
  /**
   * The history was compacted: from here on, replay puts `summary` (a user-role message) in
   * place of the derived messages from `first_seq` through `last_seq`, then the last user
   * message when it was among them (`kept_user_seq`), then the messages from `kept_from_seq`
   * on verbatim (absent: none kept), then everything after this event. The log keeps every
   * event it replaces. `usage` and `cost` are the summarising request's; `tokens_before` and
   * `tokens_after` the estimated input of the history before and after.
   */
  "context/compaction": () =>
    z.object({
      turn: z.number().int().nonnegative().optional(),
      trigger: z.enum(["auto", "manual"]),
      first_seq: z.number().int().nonnegative(),
      last_seq: z.number().int().nonnegative(),
      kept_from_seq: z.number().int().nonnegative().optional(),
      kept_user_seq: z.number().int().nonnegative().optional(),
      summary: z.string(),
      provider: z.string(),
      model: z.string(),
      request_id: z.string().nullable(),
      usage: usageSchema,
      cost: z.number().nullable(),
      tokens_before: z.number().int().nonnegative(),
      tokens_after: z.number().int().nonnegative(),
      /** What the user asked the summary to focus on (`/compact <focus>`). */
      focus: z.string().optional(),
      /** Instructions for the summary added by PreCompact hooks. */
      instructions: z.array(z.string()).optional(),
    }),
  /**
   * A sandboxed command asked the sandbox's proxy for a connection (`[sandbox.network] allow`,
   * docs/sandbox.md): to `host`:`port`, `allowed` or refused; an allowed one that could not be
   * opened carries `error` (`ENOTFOUND`, `ECONNREFUSED`, …). Written as the proxy decides, while
   * the command runs (after its `tool/call`; for a background command, possibly after its
   * `tool/result`); `call_id` is the call that started the command, absent for the user's own
   * `!` command. Never replayed to the model.
   */
  "sandbox/connection": () =>
    z.object({
      call_id: z.string().optional(),
      host: z.string(),
      port: z.number().int().nonnegative(),
      allowed: z.boolean(),
      error: z.string().optional(),
    }),
  /**
   * The model asked the user a question (the `ask_user` tool's call `call_id`; added within
   * v1): the question, its 2-6 `options`, and whether free text is accepted. Written before
   * any surface shows it; its `question/answered` follows. Never replayed (the call's
   * `tool/result` carries the answer to the model).
   */
  "question/asked": () =>
    z.object({
      call_id: z.string(),
      question: z.string(),
      options: z.array(z.string()),
      free_text: z.boolean(),
    }),
  /**
   * The answer to the `question/asked` of `call_id` (added within v1): `answer` is the option
   * chosen or the user's own text, null when none came; `by` is `user` when a person answered,
   * `default` when nobody could (no surface, exec without an input channel: `reason` says
   * which) or the turn was cancelled.
   */
  "question/answered": () =>
    z.object({
      call_id: z.string(),
      answer: z.string().nullable(),
      by: z.enum(["user", "default"]),
      reason: z.string().optional(),
    }),
  /**
   * The model ended plan mode with a plan (the `exit_plan` tool's call `call_id`; added within
   * v1): the plan, Markdown, as the user is shown it. Written before any surface shows it; its
   * `plan/decided` follows. Never replayed (the call's `tool/result` carries the decision).
   */
  "plan/proposed": () =>
    z.object({
      call_id: z.string(),
      plan: z.string(),
    }),
  /**
   * The decision on the `plan/proposed` of `call_id` (added within v1). `approved`: the user
   * approved it and the session continues in `mode` (`default` or `accept-edits`) from the
   * next call decided on, in the same turn: this is the record of that mode switch. Not
   * approved: the model keeps planning, with the user's `feedback` when they gave some; `by`
   * is `default` when nobody could decide (no surface, exec without an input channel: the
   * turn then ends with the plan) or the turn was cancelled, `reason` saying which.
   */
  "plan/decided": () =>
    z.object({
      call_id: z.string(),
      approved: z.boolean(),
      mode: z.enum(["default", "accept-edits"]).optional(),
      feedback: z.string().optional(),
      by: z.enum(["user", "default"]),
      reason: z.string().optional(),
    }),
  /** The whole todo list, as last written by the model. */
  "todo/update": () =>
    z.object({
      todos: z.array(
        z.object({
          content: z.string(),
          status: z.enum(["pending", "in_progress", "completed"]),
        }),
      ),
    }),
  /**
   * The session continues with another model from here on (written on resume when `--model`
   * differs from the model in effect). Steps after it name the same provider and model.
   */
  "session/model": () => z.object({ provider: z.string(), model: z.string() }),
  /**
   * The reasoning effort of the session's requests from here on (`--effort`, `/effort`,
   * `[thinking] effort`, an editor's thinking option): written when a session starts with one
   * set and whenever it changes; on resume the newest one holds unless `--effort` names
   * another. `off` turns thinking off.
   */
  "session/effort": () => z.object({ effort: z.enum(EFFORT_LEVELS) }),
  /**
   * The user named the session (an editor's /title over ACP); the newest one holds. A session
   * without one is titled by its first prompt in listings.
   */
  "session/title": () => z.object({ title: z.string() }),
  /**
   * The writer reopened a log whose last line was torn, and cut those bytes; or `sessions
   * repair` cut a damaged tail, keeping the cut bytes in `kept_in` (a file name in the log's
   * folder).
   */
  "session/recovered": () =>
    z.object({
      dropped_bytes: z.number().int().nonnegative(),
      kept_in: z.string().optional(),
    }),
  /**
   * A receipt, written by the writer after every `turn/end` and when it closes a log whose last
   * event is not one: the Ed25519 signature `sig` (base64), by the user's key whose
   * fingerprint is `key`, of (`session_id`, `signed_seq`, `signed_h`), where `signed_seq` and
   * `signed_h` are the seq and `h` of the line just before this one. Since `h` chains every
   * earlier line, it signs the whole log up to there (docs/session-format.md, "Receipts").
   */
  "session/checkpoint": () =>
    z.object({
      session_id: z.string(),
      signed_seq: z.number().int().nonnegative(),
      signed_h: z.string(),
      key: z.string(),
      sig: z.string(),
    }),
  /**
   * The workspace's files were captured in the session's checkpoint store (docs/rewind.md),
   * and some changed since the checkpoint before: `tree` names the whole state (a git tree id in
   * the store at `$CODEWHALE_HOME/checkpoints/<session>/`), `files` lists what changed since the
   * previous checkpoint by content hash (git blob id; null: deleted), never by content. Taken
   * around a tool call that may change files (`at` `before`: changes made outside codewhale
   * since the last checkpoint; `after`: what the call changed, less `outside`, the files
   * changed before it began), and by a rewind (`rewind`: the
   * state it replaces, so it can be redone). `base` marks a session's first checkpoint, whose
   * `files` is empty. `skipped` notes what was not captured and why. Written only when
   * something changed.
   */
  "checkpoint/taken": () =>
    z.object({
      checkpoint: z.number().int().positive(),
      at: z.enum(["before", "after", "rewind"]),
      turn: z.number().int().nonnegative().optional(),
      call_id: z.string().optional(),
      tree: z.string(),
      /** A blob in the store with the exact permission bits of files not 0644 or 0755. */
      modes: z.string().optional(),
      base: z.literal(true).optional(),
      file_count: z.number().int().nonnegative(),
      files: z.array(checkpointFile),
      /** Of `files` (with `at` `after`), those changed before the call began: outside codewhale. */
      outside: z.array(z.string()).optional(),
      skipped: z.array(skippedFile).optional(),
    }),
  /**
   * A rewind (docs/rewind.md): `scope` `code` restored the workspace's files (all of them, or
   * only `file`) to checkpoint `to`; `conversation` ends the history the next request replays
   * before the event whose seq is `history_until` (a prompt), later events stay in the log;
   * `both` does both. `redo_point` is the checkpoint of the state it replaced (a rewind to it
   * undoes this one); `redo_of` is the seq of the rewind this one undoes, whose history it
   * brings back. `by` is who asked (`cli`, `terminal`, `acp`, `stream-json`); `forced` names
   * the files changed outside codewhale that `--force` overwrote; `recovered` is set when an
   * interrupted rewind was finished later. With code, `checkpoint`, `tree`, `modes` and
   * `file_count` describe the state it left, as a `checkpoint/taken` would.
   */
  "checkpoint/rewind": () =>
    z.object({
      scope: z.enum(["code", "conversation", "both"]),
      /** With code: the state after the rewind, a checkpoint numbered like `checkpoint/taken`. */
      checkpoint: z.number().int().positive().optional(),
      tree: z.string().optional(),
      modes: z.string().optional(),
      file_count: z.number().int().nonnegative().optional(),
      by: z.string(),
      to: z.number().int().positive().optional(),
      prompt: z.number().int().positive().optional(),
      file: z.string().optional(),
      files: z.array(checkpointFile),
      redo_point: z.number().int().positive().optional(),
      redo_of: z.number().int().nonnegative().optional(),
      history_until: z.number().int().nonnegative().optional(),
      forced: z.array(z.string()).optional(),
      recovered: z.literal(true).optional(),
    }),
} as const;

type PayloadSchemas = {
  readonly [T in keyof typeof payloadDefinitions]: ReturnType<(typeof payloadDefinitions)[T]>;
};

/**
 * The payload schema of each event type. Each is built on first use: building all of them
 * costs a few milliseconds of every start, before its first frame, that most runs (which
 * write or read a handful of event types) never need.
 */
export const payloadSchemas = lazyTable(
  Object.keys(payloadDefinitions) as Array<keyof PayloadSchemas>,
  (type) => payloadDefinitions[type](),
) as PayloadSchemas;

/** An object with one enumerable member per key, each made by `make` on first read, once. */
function lazyTable<K extends string, V>(keys: readonly K[], make: (key: K) => V): Record<K, V> {
  const table = {} as Record<K, V>;
  for (const key of keys) {
    let built: V | undefined;
    Object.defineProperty(table, key, {
      enumerable: true,
      get: () => {
        built ??= make(key);
        return built;
      },
    });
  }
  return table;
}

export type EventType = keyof typeof payloadSchemas;

/** The deltas one chunk event records, as they were streamed. */
export function chunkDeltas(chunk: Pick<Payload<"assistant/chunk">, "delta" | "parts">): string[] {
  const parts = chunk.parts;
  if (!parts) return [chunk.delta];
  const deltas: string[] = [];
  let at = 0;
  for (const length of parts) {
    deltas.push(chunk.delta.slice(at, at + length));
    at += length;
  }
  return deltas;
}
export const EVENT_TYPES = Object.keys(payloadSchemas) as EventType[];

/** The fields the store sets on every line. */
export interface Envelope {
  /** Schema version, SESSION_SCHEMA_VERSION. */
  v: number;
  /** Dense position in the log, from 0. */
  seq: number;
  /** ISO-8601 time of the append. */
  ts: string;
  /** Hex SHA-256 chaining this event to the previous one (see docs/session-format.md). */
  h: string;
}

export type Payload<T extends EventType> = z.infer<(typeof payloadSchemas)[T]>;

/** An event as the store receives it: a type and its payload, no envelope. */
export type EventInput = { [T in EventType]: { type: T } & Payload<T> }[EventType];

/** A durable event as written and read: envelope plus typed payload. */
export type SessionEvent = { [T in EventType]: Envelope & { type: T } & Payload<T> }[EventType];

/** Narrows a SessionEvent to one type. */
export type EventOf<T extends EventType> = Extract<SessionEvent, { type: T }>;

const envelopeShape = {
  v: z.literal(SESSION_SCHEMA_VERSION),
  seq: z.number().int().nonnegative(),
  ts: z.string(),
  /** 64 hex digits; the reader proves it by recomputing the hash. */
  h: z.string().length(64),
};

type LineSchemas = { [T in EventType]: z.ZodType<EventOf<T>> };

/**
 * The runtime validator of a whole line of each type (envelope, type and payload, strict).
 * Each is built on first use: building all of them costs ~10 ms that a run starting up should
 * not pay before it reads a log.
 */
export const lineSchemas = lazyTable(EVENT_TYPES, (type) =>
  payloadSchemas[type].extend({ ...envelopeShape, type: z.literal(type) }).strict(),
) as unknown as LineSchemas;

let unionSchema: z.ZodType<SessionEvent> | undefined;
/** The runtime validator for any line, built from the same definitions (on first use). */
export function sessionEventSchema(): z.ZodType<SessionEvent> {
  unionSchema ??= z.discriminatedUnion(
    "type",
    Object.values(lineSchemas) as unknown as [z.ZodObject, ...z.ZodObject[]],
  ) as unknown as z.ZodType<SessionEvent>;
  return unionSchema;
}

const EVENT_TYPE_SET: ReadonlySet<string> = new Set(EVENT_TYPES);

/** Whether a value names an event type (a Set: replay asks it of every line). */
export function isEventType(value: unknown): value is EventType {
  return typeof value === "string" && EVENT_TYPE_SET.has(value);
}

/** Event types after which the writer syncs to disk before returning (the durability contract). */
export const SYNC_EVENT_TYPES: ReadonlySet<EventType> = new Set<EventType>([
  "session/start",
  "user/message",
  "steering/message",
  "session/title",
  "tool/call",
  "question/answered",
  "plan/decided",
  "step/end",
  "compaction/start",
  "context/compaction",
  "turn/end",
  "session/recovered",
  "session/checkpoint",
]);

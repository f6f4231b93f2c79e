// Checkpoints around the tool calls that may change files (every tool not read-only: write,
// edit, bash, external tools, MCP tools that do not declare themselves read-only): the
// workspace is captured after the call runs (and before, when needed), and a `checkpoint/taken` is written
// (before the call's result) only when something changed, so a session that changes nothing
// logs nothing. The store opens on the first such call. tool-calls.ts calls `around`; the
// agent's rewind uses `rewindWith`.

import { isAbsolute, join, relative, sep } from "node:path";
import {
  type Capture,
  CheckpointStore,
  interruptedRewind,
  lastState,
  nextCheckpoint,
  type RewindDone,
  type RewindRequest,
  recoverRewind,
  rewind,
  stateBeforePrompt,
  timelineOf,
  treeDiff,
} from "../checkpoints/index.ts";
import type { Config } from "../config/index.ts";
import { errorMessage } from "../errors.ts";
import type { EventInput, SessionEvent } from "../session/events.ts";
import type { Tool } from "../tools/types.ts";

interface CallCheckpointsOptions {
  home: string;
  sessionId: string;
  cwd: string;
  config: Config["checkpoints"];
  append: (event: EventInput) => SessionEvent;
  /** Syncs the session log to disk. */
  sync: () => void;
  history: () => readonly SessionEvent[];
  /** Tells the person running the session (once) that checkpoints are off, and why. */
  notice: (message: string) => void;
}

interface Around {
  callId: string;
  turn: number;
  tool: Pick<Tool, "readOnly" | "changes">;
  /** The call's checked arguments (what `tool.changes` reads). */
  args: unknown;
}

export class CallCheckpoints {
  /** undefined: not opened yet; null: unavailable (disabled, or git failed). */
  private store: CheckpointStore | null | undefined;
  private next = 1;
  /** The session's first capture, held until a call changes something (then it is the base). */
  private base: { capture: Capture; call: Around } | null = null;

  constructor(private readonly options: CallCheckpointsOptions) {
    if (!options.config.enabled) this.store = null;
  }

  /**
   * Runs `run`, capturing the workspace after it when the tool may change files. Before it only
   * when the store's index is not at the last recorded state (the session's first such call,
   * after a /diff): otherwise what changed since is found after the call, and what changed
   * before it began (outside codewhale) is told apart by its change time (`outside`). A call
   * that names the files it changes (`write`, `edit`) has only those looked at after it; one
   * that changes none (a bash command of programs that only read) is not captured.
   */
  async around<T>(call: Around, run: () => Promise<T>): Promise<T> {
    if (call.tool.readOnly) return run();
    const declared = call.tool.changes?.(call.args);
    // Awaited only when the tool's answer waits (bash before its parser loads).
    const named = declared instanceof Promise ? await declared.catch(() => undefined) : declared;
    if (named?.length === 0) return run();
    const store = await this.open();
    if (!store) return run();
    if (!store.atRecorded()) {
      const before = await this.capture(store);
      if (!before) return run();
      this.recordBefore(store, before, call);
    }
    let since: bigint;
    try {
      since = store.clock();
    } catch (error) {
      this.disable(error);
      return run();
    }
    const result = await run();
    const after = await this.capture(store, since, named && this.inWorkspace(named));
    if (after?.changed) this.recordAfter(store, after, call);
    return result;
  }

  /**
   * Finishes a rewind of this session that was killed half way (its journal is in the store),
   * so the workspace is back to one whole state before anything else runs; recorded as a
   * `checkpoint/rewind` marked `recovered`. Called when the session is opened.
   */
  async recover(): Promise<void> {
    const { home, sessionId } = this.options;
    if (!interruptedRewind(join(home, "checkpoints", sessionId))) return;
    const store = await this.open(true);
    if (!store) return;
    await recoverRewind(this.rewindContext(store));
    this.sync(store);
  }

  /** A rewind of this session (the terminal's /rewind, ACP, stream-json). */
  async rewindWith(request: RewindRequest): Promise<RewindDone> {
    const store = await this.open(true);
    if (!store) throw new Error("checkpoint store unavailable");
    this.base = null;
    const done = await rewind(this.rewindContext(store), request);
    this.sync(store);
    return done;
  }

  /**
   * The diff from the state before prompt `prompt` (default: the last) to the workspace now,
   * or null when no checkpoint was taken before it. Nothing is recorded.
   */
  async diffSince(prompt?: number): Promise<string | null> {
    const store = await this.open(true);
    if (!store) return null;
    const timeline = timelineOf(this.options.history());
    const state = stateBeforePrompt(timeline, prompt ?? timeline.prompts.length);
    if (!state) return null;
    const now = await store.capture();
    return treeDiff(store.place, state.tree, now.tree);
  }

  private recordBefore(store: CheckpointStore, before: Capture, call: Around): void {
    if (store.lastRecorded() === null || this.base) {
      // Not written yet: the state before the first change, compared with after the call.
      store.markRecorded(before);
      this.base = { capture: before, call };
      return;
    }
    if (before.changed) this.write(store, before, "before", call);
  }

  private recordAfter(store: CheckpointStore, after: Capture, call: Around): void {
    if (this.base) {
      this.write(store, this.base.capture, "before", this.base.call, true);
      this.base = null;
    }
    this.write(store, after, "after", call);
  }

  private write(
    store: CheckpointStore,
    capture: Capture,
    at: "before" | "after",
    call: Around,
    base = false,
  ): void {
    this.options.append({
      type: "checkpoint/taken",
      checkpoint: this.next++,
      at,
      turn: call.turn,
      call_id: call.callId,
      tree: capture.tree,
      ...(capture.modes ? { modes: capture.modes } : {}),
      ...(base ? { base: true as const } : {}),
      file_count: capture.fileCount,
      files: base ? [] : capture.files,
      ...(!base && capture.outside ? { outside: capture.outside } : {}),
      ...(capture.skipped.length > 0 ? { skipped: capture.skipped } : {}),
    });
    store.markRecorded(capture);
  }

  private async capture(
    store: CheckpointStore,
    since?: bigint,
    paths?: readonly string[],
  ): Promise<Capture | null> {
    try {
      return await store.capture(since, paths);
    } catch (error) {
      this.disable(error);
      return null;
    }
  }

  /** Absolute paths as workspace-relative ones, or undefined when one is not inside it. */
  private inWorkspace(paths: readonly string[]): string[] | undefined {
    const inside: string[] = [];
    for (const path of paths) {
      const rel = relative(this.options.cwd, path);
      if (rel === "" || rel.startsWith("..") || isAbsolute(rel)) return undefined;
      inside.push(rel.split(sep).join("/"));
    }
    return inside;
  }

  private rewindContext(store: CheckpointStore) {
    const { history, append, sync } = this.options;
    return { store, events: history(), append, sync };
  }

  /** The store, opened (and brought up to the log's last state) on first use. */
  private async open(evenDisabled = false): Promise<CheckpointStore | null> {
    if (this.store !== undefined && !(evenDisabled && this.store === null)) return this.store;
    const { home, sessionId, cwd, config } = this.options;
    try {
      const limits = {
        maxFileBytes: config.max_file_bytes,
        maxCaptureBytes: config.max_checkpoint_bytes,
      };
      const store = await CheckpointStore.open({ home, sessionId, cwd, limits });
      this.sync(store);
      if (config.enabled) this.store = store;
      return store;
    } catch (error) {
      if (evenDisabled) throw error;
      this.disable(error);
      return null;
    }
  }

  /** Numbering and the last recorded state from the log. */
  private sync(store: CheckpointStore): void {
    const timeline = timelineOf(this.options.history());
    this.next = nextCheckpoint(timeline);
    store.restoreRecorded(lastState(timeline));
  }

  private disable(error: unknown): void {
    if (this.store === null) return;
    this.store = null;
    this.options.notice(`checkpoints off for this session: ${errorMessage(error)}`);
  }
}

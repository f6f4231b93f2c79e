// The agent: the surface API of one session. `Agent.open(…)` composes it (compose-session.ts);
// then a surface subscribes to `agent.bus` (`session/event` and the transient `agent/*`
// events), `submit`s prompts (FIFO: one turn at a time), `steer`s the running turn, `answer`s
// asks, `cancel`s, reads `history()`, and `close()`s (SessionEnd hooks) or `dispose()`s.
// Every agent has its own session, bus, tools and asks: several can run in one process.

import type { RewindRequest } from "../checkpoints/index.ts";
import type { PermissionMode } from "../config/index.ts";
import { askNotice, IDLE_NOTICE } from "../hooks/index.ts";
import type { PermissionContext } from "../permissions/index.ts";
import { loadBashParser } from "../permissions/index.ts";
import { preloadProvider } from "../providers/index.ts";
import type { Effort, EventOf, SessionEvent } from "../session/events.ts";
import type { AttachedImage } from "../session/images.ts";
import type { McpCatalog } from "../tools/mcp-catalog.ts";
import type { Toolbox } from "../tools/toolbox.ts";
import type {
  AgentCommand,
  CommandResult,
  CommandResults,
  WithdrawnRewind,
} from "./agent-command.ts";
import type { AgentBus, AgentStatus } from "./bus-events.ts";
import { compactHistory } from "./compaction.ts";
import { type AgentOptions, type ComposedSession, composeSession } from "./compose-session.ts";
import { ignoredEffortNotice } from "./effort.ts";
import { type FileAttach, readAttachedFile } from "./file-attach.ts";
import { notify, recordNotes } from "./notes.ts";
import type { AgentAsk, AnswerResult, AskDecision } from "./pending-asks.ts";
import { oversizedPrompt } from "./prompt-size.ts";
import { submitPrompt } from "./prompt-submit.ts";
import { imagesNotice } from "./request-images.ts";
import { type RewindOutcome, runRewind } from "./rewind-command.ts";
import { runTurn, type TurnOutcome } from "./turn.ts";
import { type CheckedScope, checkTurnScope, openTurnScope, type TurnScope } from "./turn-scope.ts";
import { runUserShell, USER_SHELL_SOURCE, type UserShellRun } from "./user-shell.ts";

export type { AgentOptions } from "./compose-session.ts";
export type { UserShellRun } from "./user-shell.ts";
export { USER_SHELL_SOURCE } from "./user-shell.ts";

/** The `context/note` source of an MCP resource the user attached (`@server:uri`). */
export const USER_ATTACH_SOURCE = "user:attach";

/** A queued prompt taken back before its turn started (`withdrawQueued`, `dispose`). */
interface WithdrawnPrompt {
  reason: "withdrawn";
  text: string;
  turn?: undefined;
  error?: undefined;
}

/** How a submitted prompt ended: its turn's outcome, or withdrawn before its turn started. */
export type SubmitOutcome = TurnOutcome | WithdrawnPrompt;

/** How `agent.compact` ended: the compaction recorded, or why there was none. */
export type CompactOutcome =
  | { reason: "compacted"; event: EventOf<"context/compaction"> }
  | { reason: "nothing" | "failed" | "cancelled" | "blocked"; error: string }
  | WithdrawnPrompt;

/** A prompt or a compaction waiting for its turn. */
interface QueuedItem {
  text: string;
  /** Runs it and settles its promise. */
  start(): Promise<void>;
  /** Settles its promise as withdrawn. */
  withdraw(): void;
}

/** The longest session name `setTitle` records, in characters. */
const MAX_TITLE = 200;

export class Agent {
  private status: AgentStatus = "idle";
  private controller: AbortController | null = null;
  private steering = 0;
  private disposed = false;
  /** Set by `close()`: no prompt is taken any more. */
  private closing = false;
  /** Settles once background processes are stopped and spill files removed. */
  private toolsDisposed: Promise<void> = Promise.resolve();
  /** The number of the turn now running. */
  private runningTurn: number | undefined;
  private readonly queue: QueuedItem[] = [];
  /** The next queued prompt starts on a later turn of the event loop (see `submit`). */
  private startScheduled = false;

  private constructor(private readonly session: ComposedSession) {}

  static async open(options: AgentOptions): Promise<Agent> {
    return new Agent(await composeSession(options));
  }

  get bus(): AgentBus {
    return this.session.ctx.bus;
  }
  get sessionId(): string {
    return this.session.ctx.sessionId;
  }
  get logPath(): string {
    return this.session.ctx.writer.path;
  }
  get provider(): string {
    return this.session.ctx.provider.name;
  }
  get model(): string {
    return this.session.ctx.model;
  }
  get cwd(): string {
    return this.session.ctx.cwd;
  }
  /** True when the session existed before this run. */
  get resumed(): boolean {
    return this.session.resumed;
  }
  /** The tools this session offers the model (surfaces read their presenters). */
  get tools(): Toolbox {
    return this.session.ctx.tools;
  }
  /**
   * The prompts (slash commands `/mcp__server__prompt`) and resources (`@server:uri`) of the
   * session's MCP servers, for a surface to offer; empty without servers.
   */
  get mcp(): McpCatalog {
    return this.session.sessionTools.mcp;
  }
  /** The system prompt every request of this run carries. */
  get systemPrompt(): string {
    return this.session.ctx.system;
  }
  /** What the permission rules resolve paths against (exec's advice on asks reads it). */
  get permissionContext(): PermissionContext {
    return this.session.ctx.guard.context;
  }
  /** The permission mode the session's calls are decided in now. */
  get permissionMode(): PermissionMode {
    return this.session.ctx.guard.permissions.mode;
  }
  /**
   * Switches the permission mode for the rest of this run, from the next call decided on (a
   * surface's mode picker, ACP's session/set_mode), and says so on the bus (`agent/mode`, as
   * an approved plan does). Not logged: a resumed session starts in the mode its config and
   * flags say.
   */
  setPermissionMode(mode: PermissionMode): void {
    this.session.setMode(mode);
  }
  /** The reasoning effort of the next request; undefined: none set (`budget_tokens` decides). */
  get effort(): Effort | undefined {
    return this.session.ctx.effort.level;
  }

  /** `set_effort`: recorded as `session/effort`; the next request carries it. */
  private setEffort(effort: Effort): void {
    if (this.disposed || this.closing) throw new Error("agent is closed");
    const { ctx } = this.session;
    if (ctx.effort.level === effort) return;
    ctx.effort.level = effort;
    ctx.writer.append({ type: "session/effort", effort });
    const ignored = ignoredEffortNotice(ctx.provider, effort, ctx.config.thinking.budget_tokens);
    if (ignored) this.bus.emit("agent/notice", { message: ignored, source: "policy" });
  }

  get running(): boolean {
    return this.controller !== null;
  }
  /** The prompts waiting for the running turn to end, oldest first. */
  get queued(): string[] {
    return this.queue.map((prompt) => prompt.text);
  }

  /**
   * Submits a prompt. With no turn running it starts at once; otherwise it waits in a FIFO
   * queue, announced as `agent/queued`, and becomes `user/message` when its turn starts. The
   * promise settles when that turn has ended (provider failures are outcomes, not rejections;
   * a failing session log rejects it), and always before the next queued turn starts, which
   * happens on a later turn of the event loop: what a surface does with an outcome at once
   * (print its result) comes before any event of the next turn.
   */
  submit(text: string, images: AttachedImage[] = [], scope?: TurnScope): Promise<SubmitOutcome> {
    if (this.disposed || this.closing) throw new Error("agent is closed");
    const { ctx } = this.session;
    const refusal = oversizedPrompt(text, ctx.provider.name, ctx.model, ctx.config);
    if (refusal) return Promise.reject(refusal);
    const notice = imagesNotice(ctx, images.length);
    if (notice) this.bus.emit("agent/notice", { message: notice, source: "policy" });
    let checked: CheckedScope | undefined;
    try {
      checked = scope ? checkTurnScope(ctx, scope, this.session) : undefined;
    } catch (error) {
      return Promise.reject(error);
    }
    for (const message of checked?.notices ?? [])
      this.bus.emit("agent/notice", { message, source: "policy" });
    return this.enqueue(text, (resolve, reject) => ({
      start: () => this.runPrompt(text, images, checked).then(resolve, reject),
      withdraw: () => resolve({ reason: "withdrawn", text }),
    }));
  }

  /**
   * Compacts the history now (`/compact [focus]`, `exec --compact`): the PreCompact hooks
   * (matcher `manual`; a block does not stop it), the summarising request, `context/compaction`,
   * then the SessionStart hooks with source `compact`. Queued behind a running turn like a
   * prompt. Resolves with the compaction, or why there was none; the log keeps every event.
   */
  compact(focus?: string): Promise<CompactOutcome> {
    if (this.disposed || this.closing) throw new Error("agent is closed");
    const text = focus ? `/compact ${focus}` : "/compact";
    return this.enqueue<CompactOutcome>(text, (resolve, reject) => ({
      start: () => this.runCompaction(focus).then(resolve, reject),
      withdraw: () => resolve({ reason: "withdrawn", text }),
    }));
  }

  /**
   * Rewinds the code, the conversation or both (docs/rewind.md): to before a prompt, to a
   * checkpoint, or back over the last rewind (`redo`). Queued behind a running turn like a
   * prompt; recorded as `checkpoint/rewind`. A refusal (files changed outside codewhale, with
   * no `force`) resolves `refused`, naming them.
   */
  rewind(request: RewindRequest): Promise<RewindOutcome | WithdrawnRewind> {
    if (this.disposed || this.closing) throw new Error("agent is closed");
    const text = "/rewind";
    return this.enqueue<RewindOutcome | WithdrawnRewind>(text, (resolve, reject) => ({
      start: () => this.between(() => runRewind(this.session.ctx, request)).then(resolve, reject),
      withdraw: () => resolve({ reason: "withdrawn", text }),
    }));
  }

  /**
   * The diff from the workspace before prompt `prompt` (default: the last) to now, from the
   * session's checkpoints (the terminal's /diff); null when none was taken before it.
   */
  checkpointDiff(prompt?: number): Promise<string | null> {
    return this.session.ctx.checkpoints.diffSince(prompt);
  }

  /** Runs `work` between turns, holding the place of a turn so nothing starts meanwhile. */
  private async between<T>(work: () => Promise<T>): Promise<T> {
    this.controller = new AbortController();
    this.setStatus("running");
    try {
      return await work();
    } finally {
      this.controller = null;
      if (!this.disposed) this.session.ctx.writer.sync();
      this.setStatus("idle");
    }
  }

  private enqueue<T>(
    text: string,
    make: (
      resolve: (value: T) => void,
      reject: (error: unknown) => void,
    ) => Omit<QueuedItem, "text">,
  ): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const waits = this.controller !== null || this.startScheduled || this.queue.length > 0;
      this.queue.push({ text, ...make(resolve, reject) });
      if (waits) this.bus.emit("agent/queued", { text });
      else this.startNext();
    });
  }

  /**
   * Carries out one command (agent-command.ts): what every surface maps its input to. Returns
   * what the command's method returns (a prompt's and a compaction's outcome, a steer's
   * acceptance, an answer's result, the withdrawn prompts).
   */
  dispatch<C extends AgentCommand>(command: C): CommandResult<C> {
    return this.carryOut(command) as CommandResult<C>;
  }

  private carryOut(command: AgentCommand): CommandResults[keyof CommandResults] {
    switch (command.type) {
      case "prompt":
        return this.submit(command.text, command.images, command.scope);
      case "steer":
        return this.steer(command.text);
      case "cancel":
        this.cancel();
        return undefined;
      case "withdraw":
        return this.withdrawQueued();
      case "answer":
        return this.answer(command.id, command.decision);
      case "compact":
        return this.compact(command.focus);
      case "set_mode":
        this.setPermissionMode(command.mode);
        return undefined;
      case "set_effort":
        this.setEffort(command.effort);
        return undefined;
      case "rewind": {
        const { type: _type, ...request } = command;
        return this.rewind(request);
      }
      case "notify":
        return this.notifyHooks("ask" in command ? command.ask : undefined);
    }
  }

  /**
   * The Notification hooks (`notify`), for an ask a surface now shows a person, or (no ask)
   * for a prompt that has waited for input.
   */
  private async notifyHooks(ask: AgentAsk | undefined): Promise<void> {
    const { ctx } = this.session;
    const { type, message } = ask
      ? askNotice(ask)
      : { type: "idle_prompt" as const, message: IDLE_NOTICE };
    const notes = await ctx.guard.hooks.notification(type, message);
    notify(ctx, "hook", notes.notices);
  }

  /**
   * Adds a message to the running turn. It is appended as `steering/message` at once (durable
   * before this returns: a crash never loses what the user typed) and reaches the model at the
   * next step boundary (derive places it there). Returns false when no turn is running, or
   * while its prompt is still with the UserPromptSubmit hooks (the turn has not started).
   */
  steer(text: string): boolean {
    const { totals, ctx } = this.session;
    if (!this.controller || this.controller.signal.aborted) return false;
    if (this.runningTurn === undefined || totals.nextTurn <= this.runningTurn) return false;
    this.steering++;
    ctx.writer.append({ type: "steering/message", turn: totals.nextTurn - 1, text });
    return true;
  }

  /**
   * Cancels the running turn: aborts the stream and running tools, and ends its pending asks
   * (denied: the call is recorded as not run); the turn ends `cancelled`. Prompts queued behind
   * it stay queued, as Claude Code and Codex keep them, and the next one starts when the
   * cancelled turn has ended; `withdrawQueued()` takes them back instead.
   */
  cancel(): void {
    if (!this.controller || this.controller.signal.aborted) return;
    this.setStatus("cancelling");
    this.controller.abort();
  }

  /**
   * Runs a shell command the user typed (`!command`) in the workspace, policed like the bash
   * tool's output, and records it as a `context/note` from `user:shell` for the next turn.
   * Not while a turn runs or after close: then it resolves undefined and runs nothing.
   */
  async runShell(command: string, signal?: AbortSignal): Promise<UserShellRun | undefined> {
    if (this.running || this.disposed || this.closing) return undefined;
    const { ctx, totals, sessionTools } = this.session;
    const run = await runUserShell(sessionTools.workspace, command, signal, (connection) => {
      if (!this.disposed) ctx.writer.append({ type: "sandbox/connection", ...connection });
    });
    if (this.disposed) return run;
    recordNotes(ctx, totals.nextTurn, USER_SHELL_SOURCE, [run.note]);
    return run;
  }

  /**
   * Reads the resource `uri` of MCP server `server` (its text through the output policy) and
   * records it as a `context/note` from `user:attach` for the next turn: what the user
   * attached with `@server:uri`. Rejects with the server's reason, or when `signal` aborts;
   * records nothing then.
   */
  async attachResource(server: string, uri: string, signal?: AbortSignal): Promise<string> {
    if (this.disposed || this.closing) throw new Error("agent is closed");
    const text = await this.mcp.readResource(server, uri, signal);
    signal?.throwIfAborted();
    const note = `@${server}:${uri}\n${text}`;
    recordNotes(this.session.ctx, this.session.totals.nextTurn, USER_ATTACH_SOURCE, [note]);
    return note;
  }

  /**
   * Checks a custom command's turn scope as `submit` will (its rules parsed, its model
   * resolved): a surface asks before it attaches the command's files, so that a prompt that
   * will not be sent leaves nothing behind for the next one. Throws the UsageError.
   */
  checkScope(scope: TurnScope): void {
    checkTurnScope(this.session.ctx, scope, this.session);
  }

  /**
   * Reads the file `path` (relative to the workspace) with the session's `read` tool and
   * records it as a `context/note` from `user:attach` for the next turn: a custom command's
   * `@path`. Only a file the permission rules let the model read without asking; resolves
   * with why not otherwise, recording nothing.
   */
  async attachFile(path: string, signal?: AbortSignal): Promise<FileAttach> {
    if (this.disposed || this.closing) throw new Error("agent is closed");
    const { ctx, totals } = this.session;
    const read = await readAttachedFile(ctx, path, signal ?? new AbortController().signal);
    if (read.ok && !this.disposed)
      recordNotes(ctx, totals.nextTurn, USER_ATTACH_SOURCE, [read.note]);
    return read;
  }

  /**
   * Names the session (`session/title`, durable): listings show it in place of the first
   * prompt. The name is kept on one line, at most 200 characters; returns what was recorded.
   */
  setTitle(title: string): string {
    if (this.disposed || this.closing) throw new Error("agent is closed");
    const line = [...title.replace(/\s+/g, " ").trim()];
    const named =
      line.length > MAX_TITLE ? `${line.slice(0, MAX_TITLE - 1).join("")}…` : line.join("");
    this.session.ctx.writer.append({ type: "session/title", title: named });
    return named;
  }

  /**
   * Loads what the first request and the first bash call need (the provider's SDK and HTTP
   * client, the bash parser) ahead of time: an interactive surface calls it while the user
   * types. One piece at a time, with the event loop free between them, so a key typed
   * meanwhile waits for one piece at most. Failures are left for the request to report.
   */
  async preload(): Promise<void> {
    const yieldToInput = () => new Promise((resolve) => setImmediate(resolve));
    await preloadProvider(this.session.ctx.provider.kind, yieldToInput).catch(() => undefined);
    await yieldToInput();
    await loadBashParser().catch(() => undefined);
  }

  /** Takes every queued prompt back (their `submit` resolves `withdrawn`); returns their text. */
  withdrawQueued(): string[] {
    const taken = this.queue.splice(0);
    for (const item of taken) item.withdraw();
    return taken.map((item) => item.text);
  }

  /** Answers an `agent/ask`; the first answer wins, a later or unknown one changes nothing. */
  answer(id: string, decision: AskDecision): AnswerResult {
    const { subagents, questions, plans } = this.session;
    if (questions.owns(id)) return questions.answer(id, decision);
    if (plans.owns(id)) return plans.answer(id, decision);
    if (subagents?.owns(id)) return subagents.answer(id, decision);
    return this.session.ctx.guard.asks.answer(id, decision);
  }

  /** The asks waiting for an answer now (for a surface that attaches while one waits). */
  pendingAsks(): AgentAsk[] {
    const children = this.session.subagents?.pending() ?? [];
    const questions = this.session.questions.pending();
    const plans = this.session.plans.pending();
    return [...this.session.ctx.guard.asks.pending(), ...questions, ...plans, ...children];
  }

  /**
   * Every durable event of the session so far, those still in the writer's memory included.
   * Subscribing to `session/event` and calling this in the same synchronous step gives every
   * event exactly once: those before in the history, the rest on the bus.
   */
  history(): SessionEvent[] {
    return this.session.journal.history();
  }

  /** Runs the SessionEnd hooks (their notices go on the bus), then disposes. */
  async close(): Promise<void> {
    if (this.disposed || this.closing) return;
    this.closing = true;
    this.withdrawQueued();
    this.controller?.abort();
    const { ctx } = this.session;
    const notes = await ctx.guard.hooks.sessionEnd("exit");
    notify(ctx, "hook", notes.notices);
    this.dispose();
    await this.toolsDisposed;
  }

  /** Closes the session at once, without the SessionEnd hooks; running hooks are killed. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.withdrawQueued();
    this.controller?.abort();
    const { ctx, sessionTools } = this.session;
    ctx.guard.dispose();
    this.toolsDisposed = sessionTools.dispose();
    try {
      ctx.writer.close();
    } finally {
      ctx.bus.emit("agent/disposed");
    }
  }

  private startNext(): void {
    if (this.controller || this.disposed) return;
    const item = this.queue.shift();
    if (!item) return;
    item.start().finally(() => this.scheduleNext());
  }

  /** The next queued turn starts after the settled one's callbacks have run. */
  private scheduleNext(): void {
    if (this.queue.length === 0 || this.startScheduled) return;
    this.startScheduled = true;
    setImmediate(() => {
      this.startScheduled = false;
      this.startNext();
    });
  }

  /** Runs one turn started by `text` (the status and signal are set before the first await). */
  private async runPrompt(
    text: string,
    images: AttachedImage[],
    checked: CheckedScope | undefined,
  ): Promise<TurnOutcome> {
    const { totals } = this.session;
    const scoped = checked ? openTurnScope(this.session.ctx, checked) : undefined;
    const ctx = scoped?.ctx ?? this.session.ctx;
    const controller = new AbortController();
    this.controller = controller;
    this.steering = 0;
    this.setStatus("running");
    ctx.guard.turnSignal = controller.signal;
    try {
      const turn = totals.nextTurn;
      this.runningTurn = turn;
      const refused = await submitPrompt(ctx, turn, text, this.session.sessionStop, images);
      if (refused) return refused;
      return await runTurn(ctx, turn, {
        signal: controller.signal,
        sessionCost: () => this.session.spent(),
        takeSteering: () => {
          const waiting = this.steering;
          this.steering = 0;
          return waiting;
        },
      });
    } finally {
      this.controller = null;
      this.runningTurn = undefined;
      ctx.guard.turnSignal = undefined;
      scoped?.close();
      if (!this.disposed) ctx.writer.sync();
      this.setStatus("idle");
    }
  }

  /** A manual compaction between turns, with the status and signal of a turn. */
  private async runCompaction(focus: string | undefined): Promise<CompactOutcome> {
    const { ctx, totals } = this.session;
    const controller = new AbortController();
    this.controller = controller;
    this.setStatus("running");
    ctx.guard.turnSignal = controller.signal;
    try {
      const outcome = await compactHistory(ctx, {
        trigger: "manual",
        noteTurn: totals.nextTurn,
        ...(focus ? { focus } : {}),
        signal: controller.signal,
      });
      return outcome.ok ? { reason: "compacted", event: outcome.event } : outcome;
    } finally {
      this.controller = null;
      ctx.guard.turnSignal = undefined;
      if (!this.disposed) ctx.writer.sync();
      this.setStatus("idle");
    }
  }

  private setStatus(status: AgentStatus): void {
    if (status === this.status) return;
    this.status = status;
    this.session.ctx.bus.emit("agent/status", { status });
  }
}

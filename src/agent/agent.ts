// The agent: opens a session (new, resumed or continued) with its permission policy and hooks,
// runs turns through the loop, takes steering and cancellation while a turn runs, and
// publishes every appended event on the bus as `session/event` plus the transient `agent/*`
// events. Surfaces drive it with `Agent.open(…)`, `run(text)`, `steer(text)`, `cancel()`, and
// `close()` (runs the SessionEnd hooks) or `dispose()`.
import type { Env, LoadedConfig } from "../config/index.ts";
import { configFingerprint } from "../config/index.ts";
import { readGateFor } from "../permissions/index.ts";
import { stream as providerStream, type StreamFunction } from "../providers/index.ts";
import { MessageDeriver } from "../session/derive.ts";
import type { SessionEvent } from "../session/events.ts";
import { SessionWriter } from "../session/writer.ts";
import type { ToolSource } from "../tools/source.ts";
import type { Toolbox } from "../tools/toolbox.ts";
import { VERSION } from "../version.ts";
import type { AgentBus, AgentStatus } from "./bus-events.ts";
import { applyHookNotes, notify } from "./notes.ts";
import { submitPrompt } from "./prompt-submit.ts";
import { resolveModel, splitModelId } from "./provider-resolve.ts";
import { PublishGate } from "./publish-gate.ts";
import { realSleep, type Sleep } from "./retry.ts";
import type { RunContext } from "./run-context.ts";
import { type GuardOptions, preparePolicy, SessionGuard } from "./session-guard.ts";
import {
  locateSession,
  modelInEffect,
  type PriorSession,
  type Receipts,
  reopenSession,
  repairEvents,
} from "./session-open.ts";
import { createSessionTools, type SessionTools } from "./session-tools.ts";
import { buildSystemPrompt } from "./system-prompt.ts";
import type { TurnStop } from "./tool-calls.ts";
import { runTurn, type TurnOutcome } from "./turn.ts";

export interface AgentOptions {
  bus: AgentBus;
  loaded: LoadedConfig;
  env: Env;
  /** The workspace the session works in. */
  cwd: string;
  sessionsDir: string;
  /** An explicit `--model`; on resume it switches the session's model (`session/model`). */
  modelOverride?: string;
  /** Session id or prefix to resume. */
  resume?: string;
  /** Resume the newest session of `cwd`. */
  continueLatest?: boolean;
  /**
   * Tool sources added after the session's own (the built-in, `[[tools.external]]` and cgc
   * tools); on a name clash the earlier source's tool wins, with one notice.
   */
  tools?: readonly ToolSource[];
  /** False: offer only the `tools` sources (tests that stand in for bash or write). */
  defaultTools?: boolean;
  /** Replaces the provider adapters (tests use a scripted stream function). */
  stream?: StreamFunction;
  sleep?: Sleep;
  random?: () => number;
  now?: () => number;
  /** The surface's permission flags and ask resolver. */
  guard?: GuardOptions;
  /** Sign checkpoints, and check those of a log to resume (without: neither). */
  receipts?: Receipts;
}

/** Session-wide figures folded from the events: turns so far and cost. */
class SessionTotals {
  nextTurn = 0;
  cost = 0;
  observe(event: SessionEvent): void {
    if (event.type === "turn/start") this.nextTurn = event.turn + 1;
    else if (event.type === "step/end" && event.cost !== null) this.cost += event.cost;
  }
}

export class Agent {
  private status: AgentStatus = "idle";
  private controller: AbortController | null = null;
  private steering = 0;
  private disposed = false;
  /** Settles once background processes are stopped and spill files removed. */
  private toolsDisposed: Promise<void> = Promise.resolve();
  /** Set when a SessionStart hook asked to stop: every prompt is then refused. */
  private sessionStop: TurnStop | undefined;
  /** The number of the turn `run` is working on. */
  private runningTurn: number | undefined;

  private constructor(
    private readonly ctx: RunContext,
    private readonly totals: SessionTotals,
    /** True when the session existed before this run. */
    readonly resumed: boolean,
    private readonly sessionTools: SessionTools,
  ) {}

  static async open(options: AgentOptions): Promise<Agent> {
    const { bus, loaded } = options;
    bus.emit("agent/created");
    const prepared = preparePolicy(loaded, options.cwd, options.guard ?? {});
    for (const message of prepared.policy.notices)
      bus.emit("agent/notice", { message, source: "policy" });
    const prior = locateSession({ ...options });
    const modelId = chooseModel(options, prior);
    const resolved = resolveModel(loaded.config, modelId, options.env);
    const system = buildSystemPrompt({
      cwd: options.cwd,
      home: loaded.home,
      promptFile: loaded.config.system_prompt_file,
      allowedDirs: loaded.config.allowed_prompt_dirs,
      onSkipped: (message) => bus.emit("agent/notice", { message, source: "policy" }),
    });
    const deriver = new MessageDeriver();
    const totals = new SessionTotals();
    const gate = new PublishGate(
      (event) => {
        deriver.push(event);
        totals.observe(event);
      },
      (event) => bus.emit("session/event", event),
    );
    const writer = openWriter(options, prior, resolved.provider.name, resolved.model, gate);
    bus.emit("agent/session-start", { sessionId: writer.id, logPath: writer.path });
    gate.open();
    if (prior) {
      for (const event of repairEvents(gate.history)) writer.append(event);
      const inEffect = modelInEffect(gate.history);
      if (inEffect.provider !== resolved.provider.name || inEffect.model !== resolved.model) {
        writer.append({
          type: "session/model",
          provider: resolved.provider.name,
          model: resolved.model,
        });
      }
    }
    const sessionTools = await createSessionTools({
      sessionId: writer.id,
      cwd: options.cwd,
      config: loaded.config,
      env: options.env,
      externalTools: prepared.policy.externalTools,
      readGate: readGateFor(prepared.permissions, prepared.context),
      ...(options.tools ? { sources: options.tools } : {}),
      ...(options.defaultTools === false ? { defaultSources: false } : {}),
      onNotice: ({ message, level }) => bus.emit("agent/notice", { message, source: level }),
    });
    const tools = sessionTools.toolbox;
    const session = {
      sessionId: writer.id,
      logPath: writer.path,
      cwd: options.cwd,
      spillDir: sessionTools.spillDir,
    };
    const guard = new SessionGuard(prepared, session, {
      env: options.env,
      loaded,
      ...(options.guard?.askResolver ? { askResolver: options.guard.askResolver } : {}),
    });
    const ctx: RunContext = {
      bus,
      writer,
      deriver,
      config: loaded.config,
      provider: resolved.provider,
      model: resolved.model,
      stream: options.stream ?? providerStream,
      system,
      tools,
      cwd: options.cwd,
      sessionId: writer.id,
      guard,
      sleep: options.sleep ?? realSleep,
      random: options.random ?? Math.random,
      now: options.now ?? Date.now,
    };
    const agent = new Agent(ctx, totals, prior !== null, sessionTools);
    const notes = await guard.hooks.sessionStart(prior ? "resume" : "startup");
    applyHookNotes(ctx, totals.nextTurn, "SessionStart", notes);
    agent.sessionStop = notes.stop;
    return agent;
  }

  get sessionId(): string {
    return this.ctx.sessionId;
  }
  get logPath(): string {
    return this.ctx.writer.path;
  }
  get provider(): string {
    return this.ctx.provider.name;
  }
  get model(): string {
    return this.ctx.model;
  }
  /** The tools this session offers the model (surfaces read their presenters). */
  get tools(): Toolbox {
    return this.ctx.tools;
  }
  /** The system prompt every request of this run carries. */
  get systemPrompt(): string {
    return this.ctx.system;
  }
  get running(): boolean {
    return this.controller !== null;
  }

  /** Runs one turn started by `text`; resolves when the turn has ended (never rejects on provider errors). */
  async run(text: string): Promise<TurnOutcome> {
    if (this.disposed) throw new Error("agent is disposed");
    if (this.controller) throw new Error("a turn is already running; steer it instead");
    const controller = new AbortController();
    this.controller = controller;
    this.steering = 0;
    this.setStatus("running");
    this.ctx.guard.turnSignal = controller.signal;
    try {
      const turn = this.totals.nextTurn;
      this.runningTurn = turn;
      const refused = await submitPrompt(this.ctx, turn, text, this.sessionStop);
      if (refused) return refused;
      return await runTurn(this.ctx, turn, {
        signal: controller.signal,
        sessionCost: () => this.totals.cost,
        takeSteering: () => {
          const waiting = this.steering;
          this.steering = 0;
          return waiting;
        },
      });
    } finally {
      this.controller = null;
      this.ctx.guard.turnSignal = undefined;
      this.ctx.writer.sync();
      this.setStatus("idle");
    }
  }

  /**
   * Adds a message to the running turn. It is appended as `steering/message` at once (durable
   * before this returns: a crash never loses what the user typed) and reaches the model at the
   * next step boundary (derive places it there). Returns false when no turn is running, or
   * while its prompt is still with the UserPromptSubmit hooks (the turn has not started).
   */
  steer(text: string): boolean {
    if (!this.controller || this.controller.signal.aborted) return false;
    if (this.runningTurn === undefined || this.totals.nextTurn <= this.runningTurn) return false;
    this.steering++;
    this.ctx.writer.append({ type: "steering/message", turn: this.totals.nextTurn - 1, text });
    return true;
  }

  /**
   * Tells the bus (`agent/queued`) that a surface is holding a prompt until the running turn
   * ends. Transient: the prompt reaches the log as `user/message` when its turn starts.
   */
  announceQueued(text: string): void {
    this.ctx.bus.emit("agent/queued", { text });
  }

  /** Cancels the running turn: aborts the stream and running tools; the turn ends `cancelled`. */
  cancel(): void {
    if (!this.controller || this.controller.signal.aborted) return;
    this.setStatus("cancelling");
    this.controller.abort();
  }

  /** Runs the SessionEnd hooks (their notices go on the bus), then disposes. */
  async close(): Promise<void> {
    if (this.disposed) return;
    this.controller?.abort();
    const notes = await this.ctx.guard.hooks.sessionEnd("exit");
    notify(this.ctx, "hook", notes.notices);
    this.dispose();
    await this.toolsDisposed;
  }

  /** Closes the session at once, without the SessionEnd hooks; running hooks are killed. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.controller?.abort();
    this.ctx.guard.dispose();
    this.toolsDisposed = this.sessionTools.dispose();
    try {
      this.ctx.writer.close();
    } finally {
      this.ctx.bus.emit("agent/disposed");
    }
  }

  private setStatus(status: AgentStatus): void {
    if (status === this.status) return;
    this.status = status;
    this.ctx.bus.emit("agent/status", { status });
  }
}

/** The `--model` flag; on resume without it, the session's own model; else config `model`. */
function chooseModel(options: AgentOptions, prior: PriorSession | null): string {
  if (options.modelOverride) {
    splitModelId(options.modelOverride);
    return options.modelOverride;
  }
  if (prior) {
    const { provider, model } = modelInEffect(prior.events);
    if (provider && model) return `${provider}/${model}`;
  }
  return options.loaded.config.model;
}

function openWriter(
  options: AgentOptions,
  prior: PriorSession | null,
  provider: string,
  model: string,
  gate: PublishGate,
): SessionWriter {
  if (prior) {
    const { writer, history } = reopenSession(prior, gate.publish, options.receipts?.signer);
    gate.history = history;
    return writer;
  }
  const start = {
    cwd: options.cwd,
    version: VERSION,
    provider,
    model,
    config_fingerprint: configFingerprint(options.loaded.config),
  };
  const signer = options.receipts?.signer;
  return SessionWriter.create(options.sessionsDir, start, {
    publish: gate.publish,
    ...(signer ? { signer } : {}),
  });
}

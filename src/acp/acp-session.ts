// One ACP session: a codewhale agent seen through the Agent Client Protocol. It renders every
// `session/event` as `session/update`s (event-updates.ts), in the order the log has them; turns
// `agent/ask` into a `tool_call` and then a `session/request_permission`, answered through
// `agent.answer`; shows a running call's progress (`tool/progress`) and a call while it is
// written (`tool/input-start`); runs prompts with `agent.submit` (or the bridge's slash
// commands, or an MCP server's prompt as `/mcp__server__prompt`, mcp-prompts.ts) and answers
// with the turn's stop reason;
// switches the model by reopening the same log with it, the thinking level with `set_effort`.
// Created by acp-sessions.ts for session/new, load and resume.
import type {
  AgentContext,
  ContentBlock,
  PromptResponse,
  SessionConfigOption,
  SessionUpdate,
} from "@agentclientprotocol/sdk";
import { RequestError } from "@agentclientprotocol/sdk";
import type { Agent, AgentAsk } from "../agent/index.ts";
import type { Config, Env, PermissionMode } from "../config/index.ts";
import { formatCount } from "../present/format.ts";
import { terminalSafe, terminalSafeLine } from "../runner/index.ts";
import type { SessionEvent } from "../session/events.ts";
import { type AttachedImage, imageDirOf } from "../session/images.ts";
import type { McpPromptInfo } from "../tools/mcp-catalog.ts";
import type { ToolProgress } from "../tools/types.ts";
import { configOptions, settingOf } from "./config-options.ts";
import { type ContextWindow, EventUpdates } from "./event-updates.ts";
import { promptCommands, usePrompt } from "./mcp-prompts.ts";
import { decisionOf, permissionOptions, planContent } from "./permission-options.ts";
import { promptText } from "./prompt-text.ts";
import { rewindCommandOf, rewindMessage } from "./rewind-command.ts";
import { modeState, permissionModeOf } from "./session-modes.ts";
import { commandOf, availableCommands as slashCommands } from "./slash-commands.ts";
import { stopReasonOf } from "./stop-reason.ts";

/** What set_config_option changed from the config: the model. */
export interface Overrides {
  model?: string;
}

/** One open agent of the session, with the config it was opened with. */
export interface OpenedAgent {
  agent: Agent;
  config: Config;
  contextWindow: ContextWindow;
}

export interface SessionHost {
  client: AgentContext;
  env: Env;
  /** Opens the session's log again (it is closed) with other overrides. */
  reopen(overrides: Overrides): Promise<OpenedAgent>;
}

export class AcpSession {
  private opened: OpenedAgent | undefined;
  private updates = new EventUpdates(() => null);
  private overrides: Overrides = {};
  /** Settles once every update sent so far has been written. */
  private written: Promise<void> = Promise.resolve();
  /** Permission requests still open, by call id: aborted when the call is decided otherwise. */
  private readonly asking = new Map<string, AbortController>();
  /** Rules the user rejected for the session: their asks are denied without asking again. */
  private readonly rejected = new Set<string>();
  /** The provider's stop reason of each turn's last answer. */
  private readonly lastStop = new Map<number, string | null>();
  /** Terminals shown in a call, by call id (its final update shows them again). */
  private readonly terminals = new Map<string, string>();
  private readonly prompts = new Set<Promise<unknown>>();
  /** The MCP servers' prompts, as last announced (the commands the client was told of). */
  private mcpPrompts: McpPromptInfo[] = [];
  private detach: Array<() => void> = [];
  /** The permission mode the client was last told of (`current_mode_update`). */
  private reportedMode: PermissionMode | undefined;
  /** Settles when a running switch of model or thinking has reopened the session. */
  private switching: Promise<void> = Promise.resolve();

  constructor(readonly host: SessionHost) {}

  get agent(): Agent {
    if (!this.opened) throw new Error("the ACP session has no agent yet");
    return this.opened.agent;
  }

  get id(): string {
    return this.agent.sessionId;
  }

  /**
   * Takes the opened agent: subscribes and reads the history in one synchronous step, so every
   * event is seen once; `replay` sends the history as updates (session/load), else it only
   * primes the projection. A session just opened then tells the client the commands it can
   * use (`announce`; a reopened one has told it already).
   */
  use(opened: OpenedAgent, replay: boolean, announce = true): void {
    this.opened = opened;
    const { agent } = opened;
    this.updates = new EventUpdates(opened.contextWindow, imageDirOf(agent.logPath));
    this.updates.tools.useSessionPresenters(agent.tools.presenter);
    this.detach.push(agent.bus.on("session/event", (event) => this.observe(event, true)));
    this.detach.push(agent.bus.on("agent/ask", (ask) => this.onAsk(ask)));
    this.reportedMode ??= agent.permissionMode;
    this.detach.push(agent.bus.on("agent/mode", ({ mode }) => this.reportMode(mode)));
    this.detach.push(agent.bus.on("tool/progress", (progress) => this.onProgress(progress)));
    this.detach.push(
      agent.bus.on("tool/input-start", (start) => this.send(this.updates.inputStart(start))),
    );
    for (const event of agent.history()) this.observe(event, replay, replay);
    // After the answer that names the session (as other agents send it): the client knows it.
    if (announce) setImmediate(() => void this.announceCommands());
  }

  /** Settles once every update sent so far is written (a load's replay, before its answer). */
  flushed(): Promise<void> {
    return this.written;
  }

  /** Runs one prompt as a turn (queued behind a running one) and answers its stop reason. */
  async prompt(blocks: readonly ContentBlock[]): Promise<PromptResponse> {
    const prompt = promptText(blocks);
    if ("refused" in prompt) {
      throw RequestError.invalidParams({ reason: prompt.refused });
    }
    await this.switching;
    const command = commandOf(prompt.text);
    if (command?.name === "plan" && command.argument !== "") {
      // `/plan <description>`: plan mode, then the description is the prompt, planned.
      this.setMode("plan");
      return this.run(command.argument, prompt.images);
    }
    if (command) {
      const cancelled = await this.runCommand(command.name, command.argument);
      return { stopReason: cancelled ? "cancelled" : "end_turn" };
    }
    return this.run(prompt.text, prompt.images);
  }

  /** A prompt for the model (or an MCP server's prompt) as a turn; answers its stop reason. */
  private async run(text: string, images: AttachedImage[] = []): Promise<PromptResponse> {
    const server = await usePrompt(text, this.mcpPrompts, this.agent.mcp);
    if (server.use === "refused") {
      this.send({
        sessionUpdate: "agent_message_chunk",
        content: { type: "text", text: terminalSafeLine(server.message) },
      });
      await this.written;
      return { stopReason: "end_turn" };
    }
    const running = this.agent.dispatch({
      type: "prompt",
      text: server.use === "text" ? server.text : text,
      images,
    });
    this.prompts.add(running);
    try {
      const outcome = await running;
      await this.written;
      if (outcome.reason === "withdrawn") return { stopReason: "cancelled" };
      const stopReason = stopReasonOf(outcome, this.lastStop.get(outcome.turn));
      if (stopReason) return { stopReason };
      throw new RequestError(-32603, outcome.error ?? "the turn failed", {
        reason: outcome.reason,
      });
    } finally {
      this.prompts.delete(running);
    }
  }

  /** The permission modes, the current one first chosen by config and flags. */
  get modes() {
    return modeState(this.agent.permissionMode);
  }

  /** The model and thinking options, with their current values. */
  get configOptions(): SessionConfigOption[] {
    const { agent, config } = this.opened ?? {};
    if (!agent || !config) return [];
    const budget = config.thinking.budget_tokens;
    const settings = { model: `${agent.provider}/${agent.model}`, effort: agent.effort, budget };
    return configOptions(settings, config, this.host.env);
  }

  /** Switches the permission mode; the client is told (`reportMode`). */
  setMode(modeId: string): void {
    const mode = permissionModeOf(modeId);
    if (!mode) throw RequestError.invalidParams({ modeId }, `unknown mode "${modeId}"`);
    const told = this.reportedMode;
    this.agent.dispatch({ type: "set_mode", mode });
    // Unchanged, the client still hears the mode it set.
    if (this.reportedMode === told) {
      this.reportedMode = mode;
      this.send({ sessionUpdate: "current_mode_update", currentModeId: mode });
    }
  }

  /** Tells the client of a mode it does not know yet (set here, or by an approved plan). */
  private reportMode(mode: PermissionMode): void {
    if (mode === this.reportedMode) return;
    this.reportedMode = mode;
    this.send({ sessionUpdate: "current_mode_update", currentModeId: mode });
  }

  /**
   * Sets the model or the thinking level: a model by closing the session's log and reopening
   * it with the model (recorded as `session/model`, as the terminal UI's /model does), a level
   * as the session's effort (`set_effort`, recorded as `session/effort`); refused while a turn
   * runs. Tells the client (`config_option_update`) and answers the options.
   */
  async setConfigOption(configId: string, value: unknown): Promise<SessionConfigOption[]> {
    const setting = settingOf(configId, value);
    await this.switching;
    if (this.agent.running || this.prompts.size > 0) {
      throw RequestError.invalidRequest({ configId }, "a turn is running: set it when it ends");
    }
    if ("effort" in setting) this.agent.dispatch({ type: "set_effort", effort: setting.effort });
    else {
      const switched = this.reopen({ ...this.overrides, model: setting.model });
      this.switching = switched.catch(() => undefined);
      await switched;
    }
    const options = this.configOptions;
    this.send({ sessionUpdate: "config_option_update", configOptions: options });
    return options;
  }

  /** Ends the running turn (its tools and asks); its prompt answers `cancelled`. */
  cancel(): void {
    this.agent.dispatch({ type: "cancel" });
  }

  /** Cancels what runs, waits for the turns to end (their logs complete), closes the agent. */
  async close(): Promise<void> {
    await this.switching;
    this.agent.dispatch({ type: "withdraw" });
    this.agent.dispatch({ type: "cancel" });
    await Promise.allSettled([...this.prompts]);
    for (const stop of this.detach.splice(0)) stop();
    for (const request of this.asking.values()) request.abort();
    await this.agent.close();
  }

  /** The bridge's commands, then the MCP servers' prompts (a failing server lists none). */
  private async announceCommands(): Promise<void> {
    const { mcp } = this.agent;
    if (mcp.servers().length > 0) {
      this.mcpPrompts = await mcp.prompts().catch((): McpPromptInfo[] => []);
    }
    const availableCommands = [...slashCommands(), ...promptCommands(this.mcpPrompts)];
    this.send({ sessionUpdate: "available_commands_update", availableCommands });
  }

  /** Shows a call's terminal in its tool_call (the editor streams it live). */
  showTerminal(callId: string, terminalId: string): void {
    this.terminals.set(callId, terminalId);
    this.send({
      sessionUpdate: "tool_call_update",
      toolCallId: callId,
      content: [{ type: "terminal", terminalId }],
    });
  }

  /**
   * Closes this agent and opens the log again with `overrides`, in the same mode. Before the
   * first prompt there is no log (docs/session-format.md): the session starts anew under its
   * id, and keeps the title it was given.
   */
  private async reopen(overrides: Overrides): Promise<void> {
    const mode = this.agent.permissionMode;
    const title = this.agent.history().findLast((event) => event.type === "session/title");
    const effort = this.agent.effort;
    for (const stop of this.detach.splice(0)) stop();
    await this.agent.close();
    const resumed = (opened: OpenedAgent) => {
      if (!opened.agent.resumed && title?.type === "session/title") {
        opened.agent.setTitle(title.title);
      }
      if (!opened.agent.resumed && effort !== undefined) {
        opened.agent.dispatch({ type: "set_effort", effort });
      }
      this.use(opened, false, false);
      this.agent.dispatch({ type: "set_mode", mode });
    };
    let opened: OpenedAgent;
    try {
      opened = await this.host.reopen(overrides);
      this.overrides = overrides;
    } catch (error) {
      // The log stays the session's: reopened as it was, and the client hears why not.
      resumed(await this.host.reopen(this.overrides));
      throw error;
    }
    resumed(opened);
  }

  /**
   * Runs a slash command of the bridge; its answer is one message to the client. True when it
   * was cancelled (session/cancel during /compact).
   */
  private async runCommand(name: string, argument: string): Promise<boolean> {
    let cancelled = false;
    const say = (text: string) =>
      this.send({ sessionUpdate: "agent_message_chunk", content: { type: "text", text } });
    try {
      if (name === "mode" || name === "plan") {
        const mode = name === "plan" ? "plan" : argument;
        this.setMode(mode);
        say(`Permission mode: ${mode}.`);
      } else if (name === "model" || name === "thinking") {
        await this.setConfigOption(name, argument);
        say(
          name === "model"
            ? `Model: ${this.agent.provider}/${this.agent.model}.`
            : `Thinking: ${argument}.`,
        );
      } else if (name === "title") {
        if (argument === "") throw RequestError.invalidParams({}, "/title needs a title");
        say(`Title: ${terminalSafeLine(this.agent.setTitle(argument))}.`);
      } else if (name === "rewind") {
        const command = rewindCommandOf(argument);
        if ("error" in command) throw RequestError.invalidParams({}, command.error);
        say(rewindMessage(await this.agent.dispatch(command)));
      } else if (name === "compact") {
        const outcome = await this.agent.dispatch({
          type: "compact",
          focus: argument || undefined,
        });
        cancelled = outcome.reason === "cancelled" || outcome.reason === "withdrawn";
        if (outcome.reason === "compacted") {
          const { tokens_before, tokens_after } = outcome.event;
          say(
            `Compacted: about ${formatCount(tokens_before)} → ${formatCount(tokens_after)} tokens.`,
          );
        } else {
          say(
            `/compact: ${outcome.reason === "withdrawn" ? "withdrawn" : terminalSafeLine(outcome.error)}`,
          );
        }
      }
    } catch (error) {
      say(`/${name}: ${error instanceof Error ? terminalSafeLine(error.message) : "failed"}`);
    }
    await this.written;
    return cancelled;
  }

  private observe(event: SessionEvent, send: boolean, replaying = false): void {
    if (event.type === "assistant/message") this.lastStop.set(event.turn, event.stop_reason);
    if (event.type === "tool/call") {
      this.asking.get(event.call_id)?.abort();
      this.asking.delete(event.call_id);
    }
    const updates = this.updates.of(event, replaying);
    if (send) for (const update of updates) this.send(this.withTerminal(update));
  }

  /**
   * A running call's progress (its output tail, already policed, or a status line) replaces
   * the call's content until its result does; a call in the editor's terminal shows that.
   */
  private onProgress(progress: ToolProgress & { callId: string }): void {
    if (this.terminals.has(progress.callId)) return;
    const text = progress.tail ?? progress.message;
    if (text === undefined) return;
    this.send({
      sessionUpdate: "tool_call_update",
      toolCallId: progress.callId,
      content: [{ type: "content", content: { type: "text", text: terminalSafe(text) } }],
    });
  }

  /** A call's final update shows its terminal before the text the model received. */
  private withTerminal(update: SessionUpdate): SessionUpdate {
    if (update.sessionUpdate !== "tool_call_update" || !update.content) return update;
    const terminalId = this.terminals.get(update.toolCallId);
    if (terminalId === undefined) return update;
    this.terminals.delete(update.toolCallId);
    return { ...update, content: [{ type: "terminal", terminalId }, ...update.content] };
  }

  private send(update: SessionUpdate): void {
    this.written = this.host.client
      .notify("session/update", { sessionId: this.id, update })
      .catch(() => undefined);
  }

  /** The call is shown first (`tool_call`), then the editor is asked; its answer decides. */
  private onAsk(ask: AgentAsk): void {
    if (ask.sessionRule !== undefined && this.rejected.has(ask.sessionRule)) {
      const reason = `the user rejected ${ask.sessionRule} for this session`;
      this.agent.dispatch({ type: "answer", id: ask.id, decision: { outcome: "deny", reason } });
      return;
    }
    void this.agent.dispatch({ type: "notify", ask });
    // A subagent's call (docs/subagents.md#asks): its own tool call, named by the parent's
    // `task` call and labelled with the child; closed once answered (the child's progress
    // shows in the task call).
    const child = ask.subagent;
    const callId = child ? `${child.callId}/${ask.callId}` : ask.callId;
    const presentation = child
      ? { ...ask.presentation, title: `${ask.presentation.title} (subagent: ${child.description})` }
      : ask.presentation;
    const announced = this.updates.announce(callId, ask.name, ask.arguments, presentation);
    // A plan is shown as what it is, Markdown, in the call and in the request.
    const shown = ask.plan ? { ...announced, content: planContent(ask.plan.text) } : announced;
    this.send(shown);
    const { sessionUpdate: _, ...toolCall } = shown;
    const request = new AbortController();
    this.asking.set(callId, request);
    const agent = this.agent;
    this.host.client
      .request(
        "session/request_permission",
        { sessionId: this.id, toolCall, options: permissionOptions(ask) },
        { cancellationSignal: request.signal },
      )
      .then(
        (response) => decisionOf(ask, response.outcome),
        () => ({ decision: { outcome: "deny", reason: "the editor did not answer" } as const }),
      )
      .then(({ decision, rejectRule }: ReturnType<typeof decisionOf>) => {
        this.asking.delete(callId);
        if (child) {
          const status = decision.outcome === "deny" ? "failed" : "completed";
          this.send({ sessionUpdate: "tool_call_update", toolCallId: callId, status });
        }
        if (rejectRule !== undefined) this.rejected.add(rejectRule);
        agent.dispatch({ type: "answer", id: ask.id, decision });
      });
  }
}

// One interactive session on a pi-tui screen: the transcript, the queued prompts, the
// permission prompt, the status line and the input editor, in the terminal's own scrollback.
// Renders from the agent's bus only (`session/event`; `agent/*` for lifecycle; `tool/progress`
// and `tool/input-start` for display), drives it through submit, answer and cancel, runs the
// slash commands, Ctrl-O. Started by index.ts.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { type Component, Container, type SelectItem, Text, type TUI } from "@mariozechner/pi-tui";
import type { Agent, TurnScope } from "../agent/index.ts";
import type { PermissionMode, RuleTarget } from "../config/index.ts";
import { CodewhaleError } from "../errors.ts";
import { askNotice } from "../hooks/notification-text.ts";
import { formatCost, plural } from "../present/format.ts";
import type { PresenterLookup, ToolPresentations } from "../present/tool-presentations.ts";
import { terminalSafe as safe } from "../runner/index.ts";
import type { Effort, SessionEvent } from "../session/events.ts";
import type { FiguresFold } from "../session/figures.ts";
import { AskArea } from "./ask-area.ts";
import { attachCommandFiles, commandScope } from "./command-scope.ts";
import { InputCompletion, WorkspaceFiles } from "./completion.ts";
import { ConfirmPanel } from "./confirm-panel.ts";
import { switchTheme, themeItems, toggleVim } from "./display-commands.ts";
import { runEffortCommand } from "./effort-command.ts";
import type { PromptHistory } from "./history.ts";
import { HistorySearch } from "./history-search.ts";
import { IdlePrompt } from "./idle-prompt.ts";
import { ImageAttachments } from "./image-attachments.ts";
import { costLines, skillLines } from "./info-lines.ts";
import { initPrompt } from "./init-prompt.ts";
import { InputEditor } from "./input-editor.ts";
import { keyIs } from "./keybindings.ts";
import { McpInput } from "./mcp-input.ts";
import { editInstructions, memoryItems } from "./memory-command.ts";
import type { Notifier } from "./notifier.ts";
import { Picker } from "./picker.ts";
import { rewindItems, runRewindCommand } from "./rewind-commands.ts";
import { runSessionCommand, type SessionCommands } from "./session-commands.ts";
import { ShellCommands, shellCommandOf } from "./shell-command.ts";
import { completionCommands, helpLines, nextMode, parseSlash } from "./slash-commands.ts";
import { StatusCommand } from "./status-command.ts";
import { StatusLine } from "./status-line.ts";
import { steerQueued } from "./steer.ts";
import type { Theme } from "./theme.ts";
import { type DisplayState, Transcript } from "./transcript.ts";
import {
  expandCommand,
  type LoadedCommands,
  shellSpans,
  type UserCommand,
  UserCommandSet,
} from "./user-commands.ts";

/** A new session's first line and status, known before it is open (the first frame). */
export interface SessionHeader {
  sessionId: string;
  provider: string;
  model: string;
}

/** What a new agent for this screen is opened with (`/new`, `/model`, `/mode`). */
export interface OpenRequest {
  resume?: string;
  /** This session again before its first prompt, which writes its log: a new log, this id. */
  sessionId?: string;
  model?: string;
  mode?: PermissionMode;
}

/**
 * What the screen computes from events with code the CLI bundle already has (the presenters'
 * schemas, the figures fold): handed in, so dist/tui.cjs does not carry a second copy of zod.
 */
export interface SessionViews {
  presentations(session: PresenterLookup): ToolPresentations;
  figures(): FiguresFold;
  modes: readonly PermissionMode[];
  /** The reasoning effort levels `/effort` offers. */
  efforts?: readonly Effort[];
  /** Secrets out of text before it is stored outside the session (the prompt history). */
  redact(text: string): string;
  /** `/sessions`, `/resume`, `/export`, `/stats`, `/verify`: the CLI's own code. */
  sessions: SessionCommands;
  /** USD per million output tokens of a model, when known (the status line's live cost). */
  outputPrice?(provider: string, model: string): number | null;
  /** The models the configured providers list (`/model` with no argument). */
  models?(): Promise<SelectItem[]>;
  /** The skills the session offers, and the files left out (`/skills`). */
  skills?(): { skills: { name: string; description: string; dir: string }[]; skipped: string[] };
  /** A model's context window in tokens, when known (the status line command's input). */
  contextWindow?(provider: string, model: string): number | null;
  /** "Always allow": where a rule can be written, and the writer (config/rule-file.ts). */
  rules?: {
    targets: readonly RuleTarget[];
    /** Adds the rule; false when it was there already; throws a ConfigError. */
    add(file: string, rule: string): boolean;
  };
}

export interface AppOptions {
  views: SessionViews;
  tui: TUI;
  theme: Theme;
  /**
   * The session, open already (a resumed one); or none yet, for a new session: the screen is
   * drawn from its `header` and the agent handed over by `adopt` once open.
   */
  agent: Agent | undefined;
  header?: SessionHeader;
  open: (request: OpenRequest) => Promise<Agent>;
  showThinking: boolean;
  mode: PermissionMode;
  cwd: string;
  /** `$CODEWHALE_HOME` and the project root: where user-defined commands are read. */
  home: string;
  project: string;
  /** Prompts across sessions: Up/Down and Ctrl-R walk them, each prompt sent is added. */
  history: PromptHistory;
  /** Called once, when the user leaves (Ctrl-D, /quit, Ctrl-C twice). */
  onExit: () => void;
  /** `[display] status_line`: the command, the environment it gets (no credentials), the version. */
  statusCommand?: { command: string; env: NodeJS.ProcessEnv; version: string };
  /** Tells an unfocused user a turn ended or an ask waits (notifier.ts). */
  notifier?: Notifier;
  /** `[display] idle_prompt_ms`: the wait for input after a turn before `idle_prompt`; 0 never. */
  idlePromptMs?: number;
  /** The process's environment (the editor of `/memory`, HOME). */
  env?: NodeJS.ProcessEnv;
  /** Lines shown when the screen starts (a bad keybindings.json). */
  notices?: readonly string[];
  /** `[display] editor_mode`: `vim` starts the editor in vim's insert mode. */
  editorMode?: "default" | "vim";
}

/** How long after the first frame the first request's code is loaded (Agent.preload). */
const PRELOAD_AFTER_MS = 150;

/** A second Ctrl-C within this long of the first, on an empty prompt, exits. */
const DOUBLE_CTRL_C_MS = 1500;

export class App {
  private readonly tui: TUI;
  private readonly theme: Theme;
  /** Undefined until a new session is open (`adopt`). */
  private opened: Agent | undefined;
  private readonly header: SessionHeader | undefined;
  /** Prompts sent before the session was open, in order. */
  private waiting: string[] = [];
  /** The time to preload the first request's code has come (PRELOAD_AFTER_MS). */
  private preloadDue = false;
  private readonly display: DisplayState;
  private readonly transcript: Transcript;
  private readonly queuedView = new Container();
  /** Which card Alt-Up/Alt-Down focused, while one is. */
  private readonly focusView = new Container();
  private readonly askArea: AskArea;
  private readonly searchArea = new Container();
  private readonly shell: ShellCommands;
  private readonly ownCommands: UserCommandSet;
  /** The MCP servers' prompts (slash commands) and resources (`@server:uri`). */
  private readonly mcpInput = new McpInput(() => this.agent);
  /** The images of the prompt being typed: pasted paths, `@file.png`, Ctrl-V. */
  private readonly images: ImageAttachments;
  /** Stops the `@server:uri` reads of a prompt waiting to be sent (Esc). */
  private attaching: AbortController | undefined;
  /** The history search or the session picker, while one is open above the editor. */
  private overlay: Component | undefined;
  private readonly status: StatusLine;
  private readonly statusCommand: StatusCommand | undefined;
  private readonly started = Date.now();
  /** The input tokens of the last request: the context the status line command is told of. */
  private contextTokens = 0;
  private readonly editor: InputEditor;
  private queued: string[] = [];
  private figures: FiguresFold;
  private mode: PermissionMode;
  private lastCtrlC = 0;
  private detach: Array<() => void> = [];
  private switching = false;
  /** The last event shown, so a reopened session adds only what is new. */
  private lastSeq = -1;

  /** Claude Code's `idle_prompt`: the prompt waited for input after a turn. */
  private readonly idlePrompt: IdlePrompt;

  constructor(private readonly options: AppOptions) {
    this.idlePrompt = new IdlePrompt(options.idlePromptMs ?? 0, () => {
      void this.opened?.dispatch({ type: "notify", idle: true });
    });
    this.tui = options.tui;
    this.theme = options.theme;
    this.opened = options.agent;
    this.header = options.header;
    this.mode = options.mode;
    this.display = { showThinking: options.showThinking };
    this.figures = options.views.figures();
    const lookup = (name: string) => this.agent.tools.presenter(name);
    this.transcript = new Transcript(
      this.theme,
      this.display,
      options.views.presentations(lookup),
      {
        presentations: () => options.views.presentations(lookup),
        events: (id) => options.views.sessions.childEvents(id),
      },
    );
    this.status = new StatusLine(this.tui, this.theme);
    const own = options.statusCommand;
    this.statusCommand = own
      ? new StatusCommand(
          own.command,
          { cwd: options.cwd, env: own.env, version: own.version },
          (line) => {
            this.status.custom = line;
            this.tui.requestRender();
          },
        )
      : undefined;
    this.ownCommands = new UserCommandSet({ home: options.home, project: options.project });
    this.shell = new ShellCommands({
      agent: () => this.agent,
      status: this.status,
      theme: this.theme,
      say: (line) => {
        this.transcript.notice(line);
        this.tui.requestRender();
      },
    });
    this.images = new ImageAttachments(options.cwd, {
      platform: process.platform,
      env: process.env,
    });
    this.editor = new InputEditor(this.tui, this.theme.editor, { paddingX: 1 });
    if (options.editorMode === "vim") this.editor.setVim(true, this.theme.dim);
    this.askArea = new AskArea({
      tui: this.tui,
      theme: this.theme,
      agent: () => this.agent,
      idleFocus: () => this.tui.setFocus(this.editor),
      notice: (line) => this.transcript.notice(line),
      ...(options.views.rules ? { rules: options.views.rules } : {}),
    });
    this.editor.setAutocompleteProvider(
      new InputCompletion(
        () => completionCommands(this.userCommands(), this.mcpInput.commands()),
        new WorkspaceFiles(options.cwd),
        options.cwd,
        this.mcpInput,
      ),
    );
    this.editor.onSubmit = (text) => this.submit(text);
    for (const text of options.history.texts) this.editor.addToHistory(text);
    for (const part of [
      this.transcript.root,
      this.queuedView,
      this.focusView,
      this.askArea.root,
      this.status,
      this.searchArea,
      this.editor,
    ]) {
      this.tui.addChild(part);
    }
    this.tui.setFocus(this.editor);
    const { notifier } = options;
    if (notifier) this.tui.addInputListener((data) => notifier.input(data));
    // The clipboard is read after the key: its marker goes in later, and is drawn then.
    const editor = {
      insertTextAtCursor: (text: string) => {
        this.editor.insertTextAtCursor(text);
        this.tui.requestRender();
      },
    };
    this.tui.addInputListener(this.images.listener(editor, (line) => this.say(line)));
    this.tui.addInputListener((data) => this.onKey(data));
  }

  /**
   * Shows the session so far (a resumed one's transcript) and follows it live; a new one's
   * first line and status until `adopt` hands over its agent.
   */
  start(firstPrompt?: string): void {
    for (const line of this.options.notices ?? []) this.say(line);
    if (this.opened) this.attach(this.opened);
    else if (this.header) {
      const { sessionId, provider, model } = this.header;
      this.transcript.announce(sessionId, provider, model);
      this.updateIdle();
    }
    if (firstPrompt?.trim()) this.submit(firstPrompt);
    // While the user types the first prompt: load what its request needs, after the first frame.
    // A session still opening then is preloaded once open (`adopt`).
    setTimeout(() => {
      this.preloadDue = true;
      void this.opened?.preload();
    }, PRELOAD_AFTER_MS).unref();
  }

  /** The new session, now open: followed from here; prompts sent meanwhile go in, in order. */
  adopt(agent: Agent): void {
    this.opened = agent;
    if (agent.permissionMode !== this.mode) agent.dispatch({ type: "set_mode", mode: this.mode });
    this.attach(agent);
    for (const raw of this.waiting.splice(0)) this.submit(raw);
    if (this.preloadDue) void agent.preload();
  }

  private get agent(): Agent {
    if (!this.opened) throw new Error("the session is not open yet");
    return this.opened;
  }

  dispose(): void {
    this.idlePrompt.disarm();
    this.status.dispose();
    this.statusCommand?.dispose();
    for (const off of this.detach.splice(0)) off();
  }

  /** Undefined only before a new session is open. */
  get currentAgent(): Agent | undefined {
    return this.opened;
  }

  private attach(agent: Agent): void {
    const { bus } = agent;
    // History, then the bus, in one synchronous step: every event exactly once.
    for (const event of agent.history()) if (event.seq > this.lastSeq) this.observe(event);
    this.detach = [
      bus.on("session/event", (event) => {
        this.observe(event);
        this.tui.requestRender();
      }),
      bus.on("agent/status", ({ status }) => {
        this.status.setRunning(status !== "idle", status === "cancelling");
        if (status === "idle") this.idlePrompt.arm();
        else this.idlePrompt.disarm();
        if (status === "idle") {
          this.options.notifier?.notify("codewhale is waiting for your input");
          this.updateIdle();
          void this.refreshMcp();
        }
      }),
      bus.on("agent/queued", ({ text }) => {
        this.queued.push(text);
        this.renderQueued();
      }),
      bus.on("agent/ask", (ask) => {
        this.transcript.asked(ask.callId);
        this.askArea.add(ask);
        this.options.notifier?.notify(askNotice(ask).message);
        void agent.dispatch({ type: "notify", ask });
      }),
      bus.on("agent/mode", ({ mode }) => this.modeChanged(mode)),
      bus.on("subagent/event", (child) => {
        this.transcript.subagent(child);
        this.tui.requestRender();
      }),
      bus.on("subagent/progress", (progress) => {
        this.transcript.subagentProgress(progress);
        this.tui.requestRender();
      }),
      bus.on("tool/input-start", (start) => {
        this.transcript.inputStart(start);
        this.tui.requestRender();
      }),
      bus.on("tool/progress", ({ callId, tail }) => {
        if (tail === undefined) return;
        this.transcript.progress(callId, tail);
        this.tui.requestRender();
      }),
      bus.on("agent/notice", ({ message }) => {
        this.transcript.notice(this.theme.dim(safe(message)));
        this.tui.requestRender();
      }),
    ];
    this.status.outputPrice = this.options.views.outputPrice?.(agent.provider, agent.model) ?? null;
    void this.refreshMcp();
    this.updateIdle();
    this.tui.requestRender();
  }

  /** The MCP prompts and resources read again; a `/…` being typed sees the new ones at once. */
  private async refreshMcp(): Promise<void> {
    await this.mcpInput.refresh();
    this.editor.refreshCompletion();
  }

  private observe(event: SessionEvent): void {
    this.lastSeq = event.seq;
    this.transcript.observe(event);
    this.status.observe(event);
    this.figures.observe(event);
    if (event.type === "step/end") {
      const { usage } = event;
      this.contextTokens = usage.input + usage.cache_read + usage.cache_write;
      this.updateStatusCommand();
    }
    if (event.type === "user/message") {
      const at = this.queued.indexOf(event.text);
      if (at >= 0) {
        this.queued.splice(at, 1);
        this.renderQueued();
      }
    }
    // An ask ends when its call is decided (answered here, elsewhere, or by a cancel).
    // A question or a plan asks after its call is recorded: it ends with its answer event.
    const { type } = event;
    if (type === "tool/call" || type === "question/answered" || type === "plan/decided") {
      this.askArea.drop(event.call_id);
    }
  }

  private submit(raw: string): void {
    if (!this.opened) {
      // The session opens within a frame or two of the first: the prompt waits for it.
      if (raw.trim()) this.waiting.push(raw);
      return;
    }
    const text = raw.trim();
    if (!text) {
      // Enter on an empty prompt while a turn runs: the queued messages go in as steering.
      if (this.queued.length > 0 && this.agent.running) {
        this.queued = [];
        steerQueued(this.agent);
        this.renderQueued();
      }
      return;
    }
    this.editor.addToHistory(raw);
    this.options.history.record(raw);
    if (text.startsWith("/")) {
      void this.slash(text);
      return;
    }
    const command = shellCommandOf(text);
    if (command !== undefined) {
      void this.shell.run(command);
      return;
    }
    this.sendTyped(raw);
  }

  /** A typed prompt: its `@server:uri` mentions are attached first (none: sent at once). */
  private sendTyped(raw: string): void {
    if (this.attaching) {
      this.editor.setText(raw);
      this.say("wait for the attachment (Esc stops it)");
      return;
    }
    if (!this.mcpInput.mentions(raw)) {
      this.sendPrompt(raw);
      return;
    }
    const stop = new AbortController();
    this.attaching = stop;
    const reading = (mention: string) => {
      this.transcript.notice(this.theme.dim(safe(`attaching ${mention}… (Esc stops)`)));
      this.tui.requestRender();
    };
    void this.mcpInput.attach(raw, stop.signal, reading).then((attached) => {
      this.attaching = undefined;
      if (attached.ok) {
        this.sendPrompt(raw);
        return;
      }
      this.notSent(raw, attached.message);
    });
  }

  /** A prompt that could not be sent, and why; nothing typed is lost (back in an empty editor). */
  private notSent(raw: string, why: string): void {
    const back = this.editor.getText() === "";
    if (back) this.editor.setText(raw);
    const where = back ? " (it is back in the editor)" : "";
    this.say(`${why}; the prompt was not sent${where}`);
  }

  private say(line: string): void {
    this.transcript.notice(this.theme.warn(safe(line)));
    this.tui.requestRender();
  }

  /** A prompt to the model as it is: never a slash or shell command, whatever it starts with. */
  private sendPrompt(raw: string, scope?: TurnScope): void {
    if (this.shell.running) {
      this.say("wait for the shell command (Esc stops it)");
      return;
    }
    const prompt = this.images.take(raw);
    if ("error" in prompt) {
      this.notSent(raw, prompt.error);
      return;
    }
    const agent = this.agent;
    agent.dispatch({ type: "prompt", ...prompt, scope }).catch((error: unknown) => {
      // A command's allowed-tools or model that cannot be used: nothing was sent.
      if (scope && CodewhaleError.isInstance(error))
        return this.say(`${error.message}; the prompt was not sent`);
      this.transcript.notice(this.theme.bad(safe(`the session log failed: ${messageOf(error)}`)));
      this.tui.requestRender();
    });
  }

  private onKey(data: string): { consume: boolean } | undefined {
    if (this.overlay) return undefined;
    if (keyIs(data, "historySearch") && !this.askArea.showing) return this.openSearch();
    if (keyIs(data, "exit")) {
      if (this.editor.getText() !== "" || this.askArea.showing) return undefined;
      this.options.onExit();
      return { consume: true };
    }
    if (keyIs(data, "clear")) return this.onCtrlC();
    if (keyIs(data, "expandCard")) {
      if (this.transcript.toggleCard()) this.tui.requestRender(true);
      return { consume: true };
    }
    if (keyIs(data, "cardPrevious") || keyIs(data, "cardNext")) {
      this.moveCardFocus(keyIs(data, "cardPrevious") ? -1 : 1);
      return { consume: true };
    }
    if (this.askArea.showing) return undefined;
    if (keyIs(data, "cycleMode")) {
      this.setMode(nextMode(this.options.views.modes, this.mode, this.options.mode));
      return { consume: true };
    }
    if (keyIs(data, "interrupt") && this.shell.running) {
      this.shell.cancel();
      return { consume: true };
    }
    if (keyIs(data, "interrupt") && this.attaching && !this.editor.isShowingAutocomplete()) {
      this.attaching.abort();
      return { consume: true };
    }
    if (keyIs(data, "interrupt") && this.opened?.running && !this.editor.isShowingAutocomplete()) {
      this.agent.dispatch({ type: "cancel" });
      return { consume: true };
    }
    if (keyIs(data, "rewind") && this.editor.getText() === "" && !this.opened?.running) {
      // Esc Esc (two within a second) on an empty editor between turns: the rewind picker.
      const now = Date.now();
      const twice = now - this.lastEscape < 1000;
      this.lastEscape = twice ? 0 : now;
      if (twice) this.openRewindPicker();
      return { consume: twice };
    }
    return undefined;
  }

  /** When Escape was last pressed on an empty editor, for Esc Esc. */
  private lastEscape = 0;

  /** Alt-Up/Alt-Down: which card Ctrl-O expands, named above the status line. */
  private moveCardFocus(step: -1 | 1): void {
    const focus = this.transcript.moveFocus(step);
    this.focusView.clear();
    if (focus) {
      const where = `card ${focus.place} of ${focus.of}: ${focus.card.title}`;
      const keys = "Ctrl-O expands · Alt-↑/↓ moves · Alt-↓ past the last leaves";
      this.focusView.addChild(new Text(this.theme.dim(`  ▶ ${where} · ${keys}`), 0, 0));
    }
    // The focus mark may be above what the terminal shows: drawn again in full.
    this.tui.requestRender(true);
  }

  /** Ctrl-R: the history search replaces nothing until Enter takes a match. */
  private openSearch(): { consume: boolean } {
    const search = new HistorySearch(this.options.history, this.theme, (taken) => {
      this.overlay = undefined;
      this.searchArea.clear();
      if (taken !== undefined) this.editor.setText(taken);
      this.tui.setFocus(this.editor);
      this.tui.requestRender();
    });
    this.overlay = search;
    this.searchArea.addChild(search);
    this.tui.setFocus(search);
    this.tui.requestRender();
    return { consume: true };
  }

  /** Clears the prompt; else cancels the turn; else a second press exits. */
  private onCtrlC(): { consume: boolean } {
    const now = Date.now();
    if (this.editor.getText() !== "") {
      this.editor.setText("");
    } else if (this.opened?.running) {
      this.opened.cancel();
    } else if (this.shell.running) {
      this.shell.cancel();
    } else if (now - this.lastCtrlC < DOUBLE_CTRL_C_MS) {
      this.options.onExit();
    } else {
      this.transcript.notice(this.theme.dim("Press Ctrl-C again to exit"));
    }
    this.lastCtrlC = now;
    this.tui.requestRender();
    return { consume: true };
  }

  private renderQueued(): void {
    this.queuedView.clear();
    for (const text of this.queued) {
      const first = text.split("\n", 1)[0] ?? "";
      this.queuedView.addChild(new Text(this.theme.dim(`  queued: ${safe(first)}`), 0, 0));
    }
    if (this.queued.length > 0) {
      const hint = "  Enter on an empty prompt sends the queued now, as steering";
      this.queuedView.addChild(new Text(this.theme.dim(hint), 0, 0));
    }
    this.tui.requestRender();
  }

  private updateIdle(): void {
    const cost = this.figures.figures.cost;
    const { provider, model } = this.opened ?? this.header ?? { provider: "", model: "" };
    const parts = [`${provider}/${model}`, `mode ${this.mode}`];
    if (cost !== null) parts.push(formatCost(cost));
    this.status.idle = `${parts.join(" · ")} · /help`;
    this.updateStatusCommand();
  }

  /** Tells the status line command the session's state (at most every 300 ms, it says). */
  private updateStatusCommand(): void {
    const agent = this.opened;
    if (!this.statusCommand || !agent) return;
    const { figures } = this.figures;
    this.statusCommand.update({
      sessionId: agent.sessionId,
      transcriptPath: agent.logPath,
      cwd: this.options.cwd,
      projectDir: this.options.project,
      modelId: `${agent.provider}/${agent.model}`,
      costUsd: figures.cost,
      durationMs: Date.now() - this.started,
      apiDurationMs: figures.request_ms,
      linesAdded: 0,
      linesRemoved: 0,
      contextTokens: this.contextTokens,
      contextWindow: this.options.views.contextWindow?.(agent.provider, agent.model) ?? null,
    });
  }

  /** `/init`: the model writes AGENTS.md; one that exists is revised only with `/init update`. */
  private init(argument: string, say: (line: string) => void): void {
    const exists = existsSync(join(this.options.project, "AGENTS.md"));
    if (exists && argument.trim() !== "update") {
      say(this.theme.warn("AGENTS.md exists: /init update has the model revise it"));
      return;
    }
    this.sendPrompt(initPrompt(exists));
  }

  private async slash(text: string): Promise<void> {
    const parsed = parseSlash(text);
    const say = (line: string) => {
      this.transcript.notice(line);
      this.tui.requestRender();
    };
    if (!parsed.ok) {
      // A server's prompt first: a repository's own command never shadows it.
      const prompt = this.mcpInput.find(parsed.given);
      if (prompt) {
        const expanded = await this.mcpInput.expand(prompt, parsed.argument);
        if (!expanded.ok) return say(this.theme.warn(safe(expanded.message)));
        return this.sendPrompt(expanded.text);
      }
      const own = this.userCommands().commands.find((command) => command.name === parsed.given);
      if (!own) return say(this.theme.warn(parsed.message));
      // Only prompt text: a body starting with "!" or "/" is sent, never run.
      return this.runOwnCommand(own, parsed.argument);
    }
    switch (parsed.name) {
      case "help":
        return say(helpLines(this.userCommands(), this.mcpInput.helpLines()).join("\n"));
      case "thinking":
        this.display.showThinking = !this.display.showThinking;
        this.transcript.invalidate();
        this.tui.requestRender(true);
        return say(this.theme.dim(`thinking ${this.display.showThinking ? "shown" : "hidden"}`));
      case "theme":
        if (!parsed.argument)
          return this.pick("terminal theme", themeItems(this.theme), (name) => this.setTheme(name));
        return this.setTheme(parsed.argument);
      case "vim":
        return say(toggleVim(this.editor, this.theme));
      case "cost":
        return say(costLines(this.figures.figures));
      case "skills":
        return say(skillLines(this.options.views.skills?.(), this.theme));
      case "init":
        return this.init(parsed.argument, say);
      case "memory":
        return this.openMemoryPicker(say);
      case "resume":
        return this.openPicker();
      case "search":
        return this.openSearchResults(parsed.argument, say);
      case "sessions":
      case "stats":
      case "verify":
      case "export":
        return say(
          await runSessionCommand(parsed.name, parsed.argument, {
            commands: this.options.views.sessions,
            agent: this.agent,
            cwd: this.options.cwd,
            theme: this.theme,
          }),
        );
      case "rewind":
        if (!parsed.argument) return this.openRewindPicker();
        return this.rewind(parsed.name, parsed.argument, say);
      case "undo":
      case "redo":
      case "diff":
        return this.rewind(parsed.name, parsed.argument, say);
      case "compact": {
        say(this.theme.dim("compacting the conversation…"));
        const outcome = await this.agent.dispatch({
          type: "compact",
          focus: parsed.argument || undefined,
        });
        if (outcome.reason !== "compacted") {
          return say(
            this.theme.warn(outcome.reason === "withdrawn" ? "/compact withdrawn" : outcome.error),
          );
        }
        const { tokens_before, tokens_after } = outcome.event;
        return say(this.theme.dim(`compacted: about ${tokens_before} → ${tokens_after} tokens`));
      }
      case "title": {
        if (!parsed.argument)
          return say(this.theme.warn("/title needs a name, e.g. /title fix the login bug"));
        const named = this.agent.setTitle(parsed.argument);
        return say(this.theme.dim(`session named: ${safe(named)}`));
      }
      case "quit":
        return this.options.onExit();
      case "new":
        return this.reopen({}, "new session");
      case "model":
        if (!parsed.argument) return this.openModelPicker(say);
        return this.reopen({ ...this.sameSession(), model: parsed.argument }, undefined);
      case "effort":
        return runEffortCommand(parsed.argument, {
          agent: this.agent,
          levels: this.options.views.efforts ?? [],
          theme: this.theme,
          say,
          pick: (title, items, picked) => this.pick(title, items, picked),
        });
      case "mode": {
        const modes = this.options.views.modes;
        const mode = modes.find((candidate) => candidate === parsed.argument);
        if (!mode)
          return say(this.theme.warn(`/mode takes one of ${modes.join(", ")}; now ${this.mode}`));
        return this.setMode(mode);
      }
      case "plan":
        // As Claude Code's /plan: plan mode now; a description is the prompt, planned.
        this.setMode("plan");
        if (parsed.argument) this.sendPrompt(parsed.argument);
        return;
    }
  }

  /** `/theme`: the palette switched, the screen drawn again in it. */
  private setTheme(name: string): void {
    const switched = switchTheme(this.theme, name);
    if (switched.changed) this.transcript.invalidate();
    this.transcript.notice(switched.line);
    this.tui.requestRender(switched.changed);
  }

  /**
   * `/mode`, `/plan` and Shift+Tab: from the next call decided on, also in a running turn. An
   * open session says so on its bus (`modeChanged`); one still opening takes it in `adopt`.
   */
  private setMode(mode: PermissionMode): void {
    if (this.opened) this.opened.setPermissionMode(mode);
    else this.modeChanged(mode);
  }

  /** The session's mode changed (here, or an approved plan): the status line and a notice. */
  private modeChanged(mode: PermissionMode): void {
    if (mode === this.mode) return;
    this.mode = mode;
    this.updateIdle();
    this.transcript.notice(this.theme.dim(`permission mode: ${mode}`));
    this.tui.requestRender();
  }

  /**
   * A rewind command's reply; a rewind refused over files changed outside codewhale shows
   * their diffs, then asks whether to overwrite them: yes rewinds, forced; no changes nothing.
   */
  private async rewind(
    name: "rewind" | "undo" | "redo" | "diff",
    argument: string,
    say: (text: string) => void,
  ): Promise<void> {
    const reply = await runRewindCommand(name, argument, this.agent, this.theme);
    say(reply.text);
    const overwrite = reply.overwrite;
    if (!overwrite || this.overlay) return;
    const panel = new ConfirmPanel(overwrite.question, this.theme, (yes) => {
      this.overlay = undefined;
      this.searchArea.clear();
      this.tui.setFocus(this.editor);
      if (!yes) say(this.theme.dim("rewind cancelled: nothing changed"));
      else
        void overwrite
          .force()
          .then(say, (error: unknown) => say(this.theme.warn(safe(String(error)))));
      this.tui.requestRender();
    });
    this.overlay = panel;
    this.searchArea.addChild(panel);
    this.tui.setFocus(panel);
    this.tui.requestRender();
  }

  /** `/rewind` and Esc Esc: the prompts, newest first; the one picked is rewound to (both). */
  private openRewindPicker(): void {
    const items = rewindItems(this.agent);
    if (items.length === 0) {
      this.transcript.notice(this.theme.dim("nothing to rewind: no prompt yet"));
      this.tui.requestRender();
      return;
    }
    this.pick("rewind to before a prompt", items, (picked) => void this.slash(`/rewind ${picked}`));
  }

  /**
   * `/resume`: a searchable list of sessions (their content too, when the search index exists);
   * the one picked replaces this one on screen.
   */
  private async openPicker(): Promise<void> {
    const sessions = this.options.views.sessions;
    const items = sessions.pickable();
    if (items.length === 0) {
      this.transcript.notice(this.theme.dim("no sessions to resume"));
      this.tui.requestRender();
      return;
    }
    const indexed = await sessions.openSearch().catch(() => false);
    const search = indexed ? (query: string) => sessions.searchSessions(query) : undefined;
    const title = indexed ? "resume a session (searching their content)" : "resume a session";
    this.pick(title, items, (picked) => this.resumePicked(picked), undefined, search);
  }

  private resumePicked(picked: string, announce = `resumed session ${picked}`): void {
    if (picked !== this.agent.sessionId) void this.reopen({ resume: picked }, announce);
  }

  /** `/search QUERY`: the matches of past sessions; the one picked is resumed. */
  private async openSearchResults(query: string, say: (line: string) => void): Promise<void> {
    if (!query.trim()) return say(this.theme.warn('/search needs words or a "phrase"'));
    say(this.theme.dim(`searching past sessions for ${safe(query)}…`));
    let items: SelectItem[];
    try {
      items = await this.options.views.sessions.searchMatches(query, this.agent.sessionId);
    } catch (error) {
      return say(this.theme.bad(safe(messageOf(error))));
    }
    if (items.length === 0) return say(this.theme.dim(`no past session matches ${safe(query)}`));
    this.pick(`${plural(items.length, "match", "matches")} for ${safe(query)}`, items, (picked) => {
      const [id = "", seq = ""] = picked.split(" ");
      this.resumePicked(
        id,
        `resumed session ${id} (the match: codewhale sessions show ${id} --at ${seq})`,
      );
    });
  }

  /**
   * One of your own commands: each !`command` in it is asked for first and, allowed, run as a
   * `!` command of yours (its output a note for the model); then the prompt is sent.
   */
  private async runOwnCommand(own: UserCommand, argument: string): Promise<void> {
    const scope = commandScope(own);
    try {
      // Before its shell spans and files: a prompt that cannot be sent leaves nothing behind.
      if (scope) this.agent.checkScope(scope);
    } catch (error) {
      if (!CodewhaleError.isInstance(error)) throw error;
      return this.say(`${error.message}; the prompt was not sent`);
    }
    const ran = new Set<string>();
    for (const line of shellSpans(own)) {
      const run = await new Promise<string | undefined>((resolve) => {
        const choices = [
          { value: "run", label: "Run it" },
          { value: "skip", label: "Don't run it" },
        ];
        const title = `/${own.name} runs \`${safe(line)}\` first`;
        this.pick(title, choices, resolve, () => resolve(undefined));
      });
      if (run !== "run") continue;
      await this.shell.run(line);
      ran.add(line);
    }
    await attachCommandFiles(this.agent, own, (line) => this.say(line));
    this.sendPrompt(expandCommand(own, argument, ran), scope);
  }

  /** `/model`: the models the providers list; the one picked goes on with this session. */
  private async openModelPicker(say: (line: string) => void): Promise<void> {
    const list = this.options.views.models;
    if (!list)
      return say(this.theme.warn("/model needs a provider/model, e.g. /model openai/gpt-5"));
    say(this.theme.dim("asking the providers for their models…"));
    const items = await list();
    if (items.length === 0)
      return say(
        this.theme.warn(
          "no provider listed its models: /model provider/model, or codewhale models",
        ),
      );
    this.pick("switch the model", items, (model) => {
      void this.reopen({ ...this.sameSession(), model }, undefined);
    });
  }

  /** `/memory`: the instruction files, one opened in the editor with the screen handed over. */
  private openMemoryPicker(say: (line: string) => void): void {
    const { cwd, home, project } = this.options;
    const env = this.options.env ?? process.env;
    const items = memoryItems({ cwd, home, project, env });
    this.pick("open an instruction file in your editor", items, (path) => {
      const label = items.find((item) => item.value === path)?.label ?? path;
      const screen = { suspend: () => this.tui.stop(), resume: () => this.resumeScreen() };
      const edited = editInstructions(path, label, env, screen);
      say(edited.ok ? this.theme.dim(safe(edited.line)) : this.theme.warn(safe(edited.line)));
    });
  }

  /** The screen again after a program had the terminal: started, every line drawn anew. */
  private resumeScreen(): void {
    this.tui.start();
    this.tui.requestRender(true);
  }

  /** A picker above the editor; `picked` gets the chosen value (nothing on Esc). */
  private pick(
    title: string,
    items: SelectItem[],
    picked: (value: string) => void,
    left: () => void = () => undefined,
    search?: (query: string) => readonly SelectItem[],
  ): void {
    if (this.overlay) {
      left();
      return;
    }
    const picker = new Picker(
      title,
      items,
      this.theme,
      (value) => {
        this.overlay = undefined;
        this.searchArea.clear();
        this.tui.setFocus(this.editor);
        this.tui.requestRender();
        if (value) picked(value);
        else left();
      },
      search,
    );
    this.overlay = picker;
    this.searchArea.addChild(picker);
    this.tui.setFocus(picker);
    this.tui.requestRender();
  }

  private userCommands(): LoadedCommands {
    return this.ownCommands.current();
  }

  /** This session to open again: its log resumed, or its id for a log not written yet. */
  private sameSession(agent: Agent = this.agent): OpenRequest {
    const id = agent.sessionId;
    return existsSync(agent.logPath) ? { resume: id } : { sessionId: id };
  }

  /**
   * Replaces the agent: the same session resumed with another model or mode, or a new one.
   * Only between turns; the old agent is closed first (its lock released). Grants made with
   * "allow for this session" do not carry over.
   */
  private async reopen(request: OpenRequest, announce: string | undefined): Promise<void> {
    if (this.agent.running || this.switching) {
      this.say("wait for the turn to end (Esc cancels it)");
      return;
    }
    this.switching = true;
    const old = this.agent;
    const mode = request.mode ?? this.mode;
    try {
      for (const off of this.detach.splice(0)) off();
      await old.close();
      const next = await this.options.open({ ...request, mode });
      this.opened = next;
      this.mode = mode;
      if ((request.resume ?? request.sessionId) !== old.sessionId) {
        this.figures = this.options.views.figures();
        this.lastSeq = -1;
        // Another session (`/resume`): its transcript replaces this one's on screen.
        if (request.resume) {
          this.transcript.reset();
          this.focusView.clear();
        }
      }
      // A resumed session's earlier events are on screen already: only later ones are added.
      this.attach(next);
      if (announce) this.transcript.notice(this.theme.dim(announce));
      else if (request.sessionId === old.sessionId && request.model) {
        // Before the first prompt there is no log to record `session/model`: said here.
        this.transcript.notice(this.theme.dim(safe(`model: ${next.provider}/${next.model}`)));
      }
    } catch (error) {
      this.transcript.notice(this.theme.bad(safe(messageOf(error))));
      // The old session is closed: reopen it as it was, so the screen still has a session.
      const back = await this.options.open({ ...this.sameSession(old), mode: this.mode });
      this.opened = back;
      this.attach(back);
    } finally {
      this.switching = false;
      this.updateIdle();
      this.tui.requestRender();
    }
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

// `codewhale exec [options] <prompt>`: runs one task to completion without a terminal UI and
// prints it as text, one JSON object, or stream-json lines; `--input-format stream-json` turns
// it into a long-lived session driven by JSON lines on stdin (exec-stdin.ts). Nobody can answer
// a permission prompt here, so every `agent/ask` is denied with how to allow it (exec-asks.ts).
// Registered by cli/main.ts; built on the agent's surface API (submit, subscribe, answer), the
// rendering is exec-output.ts's, the prompt and piped stdin exec-prompt.ts's.
import type { Command } from "commander";
import type { BusEvents, TurnOutcome } from "../agent/index.ts";
import { Agent, oversizedPrompt } from "../agent/index.ts";
import { createBus } from "../bus/bus.ts";
import {
  configFlagsFromOptions,
  EFFORT_LEVELS,
  expandModelAlias,
  loadConfig,
  PERMISSION_MODES,
  sessionsDir,
} from "../config/index.ts";
import { ExitCode, RunStoppedError, UsageError } from "../errors.ts";
import { providerKeyVars } from "../hooks/index.ts";
import { MISSING_ANSWER_LINE } from "../present/missing-answer.ts";
import { modelInfo } from "../providers/models.ts";
import { terminalSafe } from "../runner/index.ts";
import type { AttachedImage } from "../session/images.ts";
import type { ToolSource } from "../tools/source.ts";
import { VERSION } from "../version.ts";
import { takeCredentials } from "./credential-scrub.ts";
import { cwdOption } from "./cwd-option.ts";
import { ExecRefusals, refuseAsks } from "./exec-asks.ts";
import { checkCompactFlags, compactFocus, runCompact } from "./exec-compact.ts";
import { checkExecFlags, EXEC_HELP, flagProblem } from "./exec-flags.ts";
import { ExecOutput, OUTPUT_FORMATS, type OutputFormat } from "./exec-output.ts";
import { execImages, readExecPrompt } from "./exec-prompt.ts";
import { runStdinSession } from "./exec-stdin.ts";
import { workspaceNotice } from "./exec-workspace.ts";
import { collect, effortLevel, permissionMode } from "./flag-values.ts";
import { localModelFallback } from "./local-models.ts";
import { execReceipts } from "./receipts.ts";
import { onStdoutReaderGone } from "./stdout-reader.ts";

interface ExecOptions {
  model?: string;
  effort?: string;
  outputFormat: string;
  inputFormat: string;
  maxSteps?: string;
  sandbox?: string;
  cwd?: string;
  resume?: string;
  continue?: boolean;
  sessionDir?: string;
  showThinking?: boolean;
  hideThinking?: boolean;
  quiet?: boolean;
  systemPromptFile?: string;
  maxBudgetUsd?: string;
  permissionMode?: string;
  allow: string[];
  trust?: boolean;
  compact?: string | boolean;
  answerAsks?: boolean;
  image: string[];
}

/**
 * What the command is built with; tests inject tool sources, in place of the session's own
 * (the real CLI passes nothing).
 */
export interface ExecDependencies {
  tools?: () => readonly ToolSource[];
}

export function registerExecCommand(program: Command, deps: ExecDependencies = {}): void {
  program
    .command("exec")
    .description("run a task non-interactively and print the result")
    .argument("[prompt]", 'the task; "-" or none reads it from stdin (piped stdin is appended)')
    .option("-m, --model <provider/model>", "model to use (config `model`)")
    .option("--effort <level>", `${EFFORT_LEVELS.join(", ")} (config thinking.effort)`)
    .option("--output-format <format>", "text, json or stream-json", "text")
    .option("--input-format <format>", "text, or stream-json for a session driven by stdin", "text")
    .option("--max-steps <n>", "most model requests per turn (config `max_steps`)")
    .option("--sandbox <mode>", "workspace-write, read-only or off (config `sandbox.mode`)")
    .option("--cwd <dir>", "the workspace to work in (default: the current directory)")
    .option("--resume <id>", "continue a session by id, short id or unique prefix")
    .option("--continue", "continue the most recent session of this project (or directory)")
    .option("--session-dir <dir>", "where session logs live (default $CODEWHALE_HOME/sessions)")
    .option("--show-thinking", "text format: print thinking as [thinking] lines on stderr")
    .option("--hide-thinking", "text format: do not print thinking (config display.show_thinking)")
    .option("-q, --quiet", "text format: no tool, retry or summary lines on stderr")
    .option(
      "--image <file>",
      "attach a PNG, JPEG, GIF or WebP image to the prompt (repeatable)",
      collect,
      [],
    )
    .option("--system-prompt-file <path>", "replace the built-in system prompt")
    .option("--max-budget-usd <usd>", "stop once the session has cost this much")
    .option("--permission-mode <mode>", `${PERMISSION_MODES.join(", ")} (config permissions.mode)`)
    .option(
      "--allow <rule>",
      "also allow calls matching this rule, e.g. 'bash(npm test)'",
      collect,
      [],
    )
    .option(
      "--compact [focus]",
      "with --resume or --continue: compact the session's history now (optionally focused) instead of running a prompt",
    )
    .option(
      "--answer-asks",
      "with --input-format stream-json: put each ask out as an `ask` line and wait for an `answer` line, instead of refusing it",
    )
    .option(
      "--trust",
      "trust this project's config (hooks, permissions, providers, tools …) for this run",
    )
    .addHelpText("after", EXEC_HELP)
    .action(async (prompt: string | undefined, options: ExecOptions) => {
      await runExec(prompt, options, deps);
    });
}

async function runExec(
  promptArg: string | undefined,
  given: ExecOptions,
  deps: ExecDependencies,
): Promise<void> {
  const started = Date.now();
  let options = given.model ? { ...given, model: expandModelAlias(given.model) } : given;
  const format = checkFormat(options);
  checkNotEmpty(options);
  checkExecFlags(options);
  checkCompactFlags({ ...options, prompt: promptArg });
  const mode = permissionMode(options.permissionMode);
  const effort = effortLevel(options.effort);
  if (effort) options = { ...options, effort };
  const interactive = options.inputFormat === "stream-json";
  const cwd = cwdOption(options.cwd);
  const loaded = loadExecConfig(options, cwd);
  const resuming = options.resume !== undefined || options.continue === true;
  // No model named and no key for the default one: a local server's model, when one answers.
  const local = resuming || options.model ? null : await localModelFallback(loaded, process.env);
  if (local) {
    process.stderr.write(`${local.notice}\n`);
    options = { ...options, model: local.model };
  }
  if (!resuming) checkBudgetPriced(options, loaded, options.model ?? loaded.config.model);
  const compacting = options.compact !== undefined;
  const images = execImages(options.image, promptlessReason(interactive, compacting));
  const input = interactive || compacting ? undefined : await readExecPrompt(promptArg);
  if (!resuming && input)
    refuseOversized(input.prompt, options.model ?? loaded.config.model, loaded);
  const person = personView(format, options, loaded.config.display.show_thinking);
  for (const line of person.notices(cwd, input?.notices ?? [])) process.stderr.write(`${line}\n`);
  // From here on, only the session holds the provider keys: no child can inherit or read them.
  const credentials = takeCredentials(providerKeyVars(loaded.config.providers));
  const bus = createBus<BusEvents>();
  const refusals = new ExecRefusals(options.allow);
  const output = new ExecOutput(format, process.stdout, process.stderr, {
    ...person.options,
    refusal: refusals.of,
  });
  bus.on("session/event", output.observe);
  bus.on("subagent/event", output.observeChild);
  bus.on("agent/notice", ({ message, source }) => {
    // Status lines are for a person at a terminal; scripts and CI keep a quiet stderr.
    if (source === "status" && !process.stderr.isTTY) return;
    // A notice may carry a repository's names (a link's target, a nested repository's path).
    const line = terminalSafe(message);
    output.stderrLine(source === "policy" ? line : `codewhale: ${line}`);
  });
  // Signals are handled from before the session opens until it is closed: a signal never
  // leaves a lock, a torn log or a turn without its end behind.
  const stopped = new AbortController();
  let agent: Agent | undefined;
  const stopSignals = handleStopSignals(
    () => {
      stopped.abort();
      agent?.cancel();
    },
    () => agent?.dispose(),
  );
  // A turn that starts after a signal (it came while the session opened) is cancelled at once.
  bus.on("agent/status", ({ status }) => {
    if (status === "running" && stopped.signal.aborted) agent?.cancel();
  });
  try {
    agent = await Agent.open({
      bus,
      loaded,
      env: credentials.env,
      cwd,
      sessionsDir: sessionsDir(loaded, options.sessionDir),
      ...(options.model ? { modelOverride: options.model } : {}),
      ...(effort ? { effortOverride: effort } : {}),
      ...(options.resume ? { resume: options.resume } : {}),
      ...(options.continue ? { continueLatest: true } : {}),
      ...(deps.tools ? { tools: deps.tools(), defaultTools: false } : {}),
      receipts: execReceipts(),
      guard: { ...(mode ? { mode } : {}), allow: options.allow },
    });
    const answerAsks = interactive && options.answerAsks === true;
    if (!answerAsks) refuseAsks(agent, refusals);
    if (resuming) checkBudgetPriced(options, loaded, `${agent.provider}/${agent.model}`);
    const run = {
      agent,
      output,
      cwd,
      started,
      stopped: stopped.signal,
      ...(answerAsks ? { answerAsks: refusals } : {}),
    };
    if (options.compact !== undefined) {
      const write = (text: string) => void process.stdout.write(text);
      await runCompact(agent, compactFocus(options.compact), format, write);
    } else await (interactive ? driveStdin(run) : driveOnce(run, input?.prompt ?? "", images));
  } finally {
    try {
      await agent?.close();
    } finally {
      stopSignals();
    }
  }
}

interface ExecRun {
  agent: Agent;
  output: ExecOutput;
  cwd: string;
  started: number;
  /** Aborted by the first SIGINT, SIGTERM or SIGHUP. */
  stopped: AbortSignal;
  /** `--answer-asks`: stdin answers the asks until it ends (the refusals of the rest). */
  answerAsks?: ExecRefusals;
}

/** One prompt, one turn; exits with the turn's code. */
async function driveOnce(run: ExecRun, prompt: string, images: AttachedImage[]): Promise<void> {
  await withOutput(run, async (finish) => {
    const outcome = await run.agent.dispatch({ type: "prompt", text: prompt, images });
    // Only a closed session takes a prompt back (a second signal, which exits at once).
    if (outcome.reason === "withdrawn") return { turn: 0, reason: "cancelled", error: "cancelled" };
    await finish(outcome);
    return outcome;
  });
}

/** Turns driven by stdin until EOF; a signal ends the session (exit 130). */
async function driveStdin(run: ExecRun): Promise<void> {
  await withOutput(run, async (finish) => {
    const { agent, output, stopped, answerAsks } = run;
    const last = await runStdinSession(agent, process.stdin, output, finish, stopped, answerAsks);
    if (!run.stopped.aborted) return last;
    return { turn: last?.turn ?? 0, reason: "cancelled", error: "cancelled" };
  });
}

/**
 * Prints the init line, runs `turns` with a `finish` that prints each turn's result line, and
 * throws when the last turn did not complete. Watches for the reader of stdout going away.
 */
async function withOutput(
  run: ExecRun,
  turns: (finish: (outcome: TurnOutcome) => Promise<void>) => Promise<TurnOutcome | null>,
): Promise<void> {
  const { agent, output } = run;
  output.tools.useSessionPresenters(agent.tools.presenter);
  // `codewhale exec … | head`: nobody reads the rest, so the turn stops as if cancelled.
  let readerGone = false;
  const stopWatching = onStdoutReaderGone(() => {
    readerGone = true;
    agent.dispatch({ type: "cancel" });
  });
  try {
    output.init({
      sessionId: agent.sessionId,
      logPath: agent.logPath,
      cwd: run.cwd,
      provider: agent.provider,
      model: agent.model,
      codewhaleVersion: VERSION,
      resumed: agent.resumed,
    });
    // A completed turn without an answer (a refusal, a content filter, nothing) exits 3.
    const ended = new WeakMap<TurnOutcome, { code: ExitCode; error?: string }>();
    const finish = async (outcome: TurnOutcome) => {
      const missing = outcome.reason === "completed" ? output.missingAnswer() : null;
      const exitCode = missing ? ExitCode.noAnswer : exitCodeOf(outcome);
      const error = missing ? MISSING_ANSWER_LINE[missing] : outcome.error;
      ended.set(outcome, { code: exitCode, ...(error ? { error } : {}) });
      const end = {
        sessionId: agent.sessionId,
        reason: outcome.reason,
        exitCode,
        durationMs: Date.now() - run.started,
      };
      await output.finish(error && exitCode !== 0 ? { ...end, error } : end);
    };
    const last = await turns(finish);
    const code = last ? (ended.get(last)?.code ?? exitCodeOf(last)) : ExitCode.ok;
    if (last && code !== ExitCode.ok) {
      const error = ended.get(last)?.error ?? last.error;
      const why = readerGone && last.reason === "cancelled" ? GONE : (error ?? last.reason);
      throw new RunStoppedError(why, code);
    }
  } finally {
    stopWatching();
  }
}

const GONE = "cancelled: the reader of standard output went away";

export function exitCodeOf(outcome: TurnOutcome): ExitCode {
  if (outcome.reason === "completed") return ExitCode.ok;
  if (outcome.reason === "cancelled") return ExitCode.cancelled;
  return ExitCode.failure;
}

const STOP_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

/**
 * SIGINT, SIGTERM and SIGHUP alike: the first calls `stop` (the running turn is cancelled and
 * recorded, the run ends with 130); a second exits at once with 130, after `abandon` has closed
 * the session log. Being a listener also keeps runner/shutdown.ts from re-raising the signal;
 * its cleanup runs at exit.
 */
function handleStopSignals(stop: () => void, abandon: () => void): () => void {
  let count = 0;
  const onSignal = () => {
    count++;
    if (count === 1) return stop();
    try {
      abandon();
    } catch {
      // Exiting anyway; the log is valid up to its last complete line.
    }
    process.stderr.write("codewhale: cancelled\n");
    process.exit(ExitCode.cancelled);
  };
  for (const signal of STOP_SIGNALS) process.on(signal, onSignal);
  return () => {
    for (const signal of STOP_SIGNALS) process.off(signal, onSignal);
  };
}

function checkFormat(options: ExecOptions): OutputFormat {
  const format = options.outputFormat as OutputFormat;
  if (!OUTPUT_FORMATS.includes(format)) {
    throw new UsageError(`--output-format must be one of ${OUTPUT_FORMATS.join(", ")}`);
  }
  if (options.inputFormat !== "text" && options.inputFormat !== "stream-json") {
    throw new UsageError("--input-format must be text or stream-json");
  }
  if (options.inputFormat === "stream-json" && format !== "stream-json") {
    throw new UsageError("--input-format stream-json needs --output-format stream-json");
  }
  if (options.answerAsks && options.inputFormat !== "stream-json") {
    throw new UsageError("--answer-asks needs --input-format stream-json");
  }
  if (options.showThinking && options.hideThinking) {
    throw new UsageError("use --show-thinking or --hide-thinking, not both");
  }
  if (options.resume && options.continue)
    throw new UsageError("use --resume or --continue, not both");
  return format;
}

/** An empty value would silently mean the default (a new session, the default directory). */
/** Why this run takes no `--image` (it has no prompt of its own), or null. */
function promptlessReason(interactive: boolean, compacting: boolean): string | null {
  if (interactive) return "with --input-format stream-json, send images in a user line";
  return compacting ? "--compact runs no prompt" : null;
}

function checkNotEmpty(options: ExecOptions): void {
  const values: Array<[string, string | undefined, string]> = [
    ["--resume", options.resume, "a session id or prefix"],
    ["--session-dir", options.sessionDir, "a directory"],
    ["--cwd", options.cwd, "a directory"],
  ];
  for (const [flag, value, what] of values) {
    if (value !== undefined && value.trim() === "") throw new UsageError(`${flag} needs ${what}`);
  }
}

/** The `--permission-mode` flag, checked (chat-command.ts uses it too). */
/**
 * What a person sees besides the answer, by format and terminal: text streams the answer when
 * stdout is a terminal and prints tool lines on stderr unless --quiet; colour only when stderr
 * is a terminal and NO_COLOR is unset; the session id and cost, and the workspace notice,
 * when stderr is a terminal.
 */
function personView(format: OutputFormat, options: ExecOptions, configThinking: boolean) {
  const text = format === "text";
  const errTerminal = process.stderr.isTTY === true;
  const quiet = options.quiet === true;
  const noColor = (process.env.NO_COLOR ?? "") !== "";
  const showThinking = options.showThinking ? true : options.hideThinking ? false : configThinking;
  return {
    options: {
      streamAnswer: text && process.stdout.isTTY === true,
      activity: text && !quiet,
      showThinking: text && showThinking,
      style: { color: errTerminal && !noColor },
      summary: text && !quiet && errTerminal,
    },
    /** The notices before the session opens: stdin's, then the workspace's. */
    notices(cwd: string, stdinNotices: string[]): string[] {
      const lines = [...stdinNotices];
      const workspace = workspaceNotice(cwd);
      // For a person at a terminal: a script's stderr stays one line on failure.
      if (workspace && errTerminal && !quiet) lines.push(workspace);
      return lines;
    },
  };
}

/** `--max-budget-usd` cannot stop a run whose cost is unknown: refuse it before starting. */
function checkBudgetPriced(
  options: ExecOptions,
  loaded: ReturnType<typeof loadExecConfig>,
  modelId: string,
): void {
  if (options.maxBudgetUsd === undefined) return;
  const at = modelId.indexOf("/");
  const provider = modelId.slice(0, at);
  const model = modelId.slice(at + 1);
  if (modelInfo(model, { provider, overrides: loaded.config.models })?.price) return;
  throw new UsageError(
    `--max-budget-usd needs the prices of ${modelId}, which are unknown: set input_price and output_price under [models."${modelId}"] in your config`,
  );
}

/** A new session's prompt larger than the model's window: refused before any log exists. */
function refuseOversized(
  prompt: string,
  modelId: string,
  loaded: ReturnType<typeof loadExecConfig>,
) {
  const at = modelId.indexOf("/");
  const refusal = oversizedPrompt(
    prompt,
    modelId.slice(0, at),
    modelId.slice(at + 1),
    loaded.config,
  );
  if (refusal) throw refusal;
}

function loadExecConfig(options: ExecOptions, cwd: string) {
  try {
    return loadConfig({
      cwd,
      env: process.env,
      flags: execFlags(options),
      ...(options.trust ? { trust: true } : {}),
    });
  } catch (error) {
    throw flagProblem(error);
  }
}

function execFlags(options: ExecOptions) {
  const flags: Record<string, unknown> = { ...configFlagsFromOptions(options) };
  if (options.systemPromptFile !== undefined) flags.system_prompt_file = options.systemPromptFile;
  if (options.maxBudgetUsd !== undefined) {
    const usd = Number(options.maxBudgetUsd);
    flags.max_budget_usd = Number.isFinite(usd) ? usd : options.maxBudgetUsd;
  }
  return flags;
}

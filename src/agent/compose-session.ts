// Composes one agent's session, in the order it must happen: the policy (a bad rule fails
// before any log exists), the log (new or resumed, repaired), the toolbox, the guard (which owns
// the asks), and the SessionStart hooks. Everything a session holds is its own (log, bus, tools,
// asks), so several agents live in one process. Called by Agent.open (agent.ts) only.
import { createBus } from "../bus/bus.ts";
import type { AgentDefinition, Env, LoadedConfig, PermissionMode } from "../config/index.ts";
import {
  changedGrantPaths,
  configFingerprint,
  expandModelAlias,
  loadAgentFiles,
  loadConfig,
  loadRuleFiles,
  loadSkillFiles,
  type RuleFile,
  repositoryRoot,
  type SkillDefinition,
  sessionsDir,
} from "../config/index.ts";
import { errorMessage } from "../errors.ts";
import { bashChangesNoFile, privateHostsFor, readGateFor } from "../permissions/index.ts";
import {
  type CountFunction,
  countFor,
  stream as providerStream,
  type StreamFunction,
} from "../providers/index.ts";
import { followSession } from "../search/index.ts";
import { sessionSearchSource } from "../search/session-search-tool.ts";
import { MessageDeriver } from "../session/derive.ts";
import type { Effort, SessionEvent } from "../session/events.ts";
import { SessionWriter } from "../session/writer.ts";
import type { FileAccess, TerminalHost } from "../tools/builtin/index.ts";
import { warmSandbox } from "../tools/sandbox-setup.ts";
import type { ToolSource } from "../tools/source.ts";
import { VERSION } from "../version.ts";
import { askUserToolSource } from "./ask-user-tool.ts";
import type { AgentBus, BusEvents } from "./bus-events.ts";
import { CallCheckpoints } from "./call-checkpoints.ts";
import { effortInEffect, ignoredEffortNotice, SessionEffort } from "./effort.ts";
import { exitPlanToolSource, type PlanToolSource } from "./exit-plan-tool.ts";
import { applyHookNotes } from "./notes.ts";
import { PathRules } from "./path-rules.ts";
import { PlanDesk } from "./plans.ts";
import { resolveModel, splitModelId } from "./provider-resolve.ts";
import { QuestionDesk } from "./questions.ts";
import { realSleep, type Sleep } from "./retry.ts";
import type { RunContext } from "./run-context.ts";
import {
  type GuardOptions,
  type PreparedPolicy,
  preparePolicy,
  SessionGuard,
} from "./session-guard.ts";
import { SessionJournal } from "./session-journal.ts";
import {
  locateSession,
  modelInEffect,
  type PriorSession,
  type Receipts,
  reopenSession,
  repairEvents,
} from "./session-open.ts";
import { createSessionTools, type SessionTools } from "./session-tools.ts";
import { skillToolSource } from "./skill-tool.ts";
import { type ParentLink, SubagentHost } from "./subagents.ts";
import { buildSystemPrompt } from "./system-prompt.ts";
import { taskToolSource } from "./task-tool.ts";
import { TokenEstimate } from "./token-estimate.ts";
import type { TurnStop } from "./tool-calls.ts";
import { webSearchToolSource } from "./web-search-source.ts";
import { WebSearchCount } from "./web-searches.ts";

export interface AgentOptions {
  /** The workspace the session works in. */
  cwd: string;
  /** The agent's own bus, which surfaces subscribe to (`agent.bus`); default: a new one. */
  bus?: AgentBus;
  /** Default: the config of `cwd` and the user's, as `loadConfig` reads them. */
  loaded?: LoadedConfig;
  /** Default: `process.env`. */
  env?: Env;
  /** Default: the config's session directory. */
  sessionsDir?: string;
  /**
   * An explicit model, as a person typed it (`--model`, `/model`, ACP's model option; Claude
   * Code's `sonnet` reads as config/model-alias.ts says); on resume it switches the session's
   * model (`session/model`).
   */
  modelOverride?: string;
  /** An explicit `--effort`; on resume it switches the session's effort (`session/effort`). */
  effortOverride?: Effort;
  /** Session id or prefix to resume. */
  resume?: string;
  /** Resume the newest session of `cwd`. */
  continueLatest?: boolean;
  /**
   * A new session's id, made ahead (`newSessionId()`) by a surface that shows it before the
   * session is open; ignored when resuming.
   */
  sessionId?: string;
  /**
   * Tool sources added after the session's own (the built-in, `[[tools.external]]` and cgc
   * tools); on a name clash the earlier source's tool wins, with one notice.
   */
  tools?: readonly ToolSource[];
  /** False: offer only the `tools` sources (tests that stand in for bash or write). */
  defaultTools?: boolean;
  /** A surface's access to file text for read, write and edit (an ACP editor's buffers). */
  files?: FileAccess;
  /** A surface's terminals for bash's foreground commands (an ACP editor's terminal/*). */
  terminal?: TerminalHost;
  /** Replaces the provider adapters (tests use a scripted stream function). */
  stream?: StreamFunction;
  /**
   * Replaces the provider's token-counting endpoint (null: none). Default: the provider's own
   * (`countFor`), or none with a scripted `stream`, so such tests stay off the network.
   */
  countTokens?: CountFunction | null;
  sleep?: Sleep;
  random?: () => number;
  now?: () => number;
  /** The surface's permission flags. */
  guard?: GuardOptions;
  /** Sign checkpoints, and check those of a log to resume (without: neither). */
  receipts?: Receipts;
  /**
   * Offer the `task` tool (subagents, docs/subagents.md). Default: with the default tools;
   * never in a subagent's own session.
   */
  subagents?: boolean;
  /** Set for a subagent's session: its parent session, call and shared budget. */
  parent?: ParentLink;
  /** Offer the `ask_user` tool (questions for the user). Default: with the default tools. */
  questions?: boolean;
  /**
   * Offer the `exit_plan` tool while in plan mode (plans for the user's approval). Default:
   * with the default tools; never in a subagent's own session.
   */
  plans?: boolean;
  /**
   * Offer web search: the SearXNG-backed `web_search` tool when `[web.search] searxng_url` is
   * set, and the provider's own search tool where its wire format has one. Default: with the
   * default tools.
   */
  webSearch?: boolean;
  /** A custom agent's instructions, added to the system prompt. */
  instructions?: string;
  /** Offer only the tools of these names (a custom agent's `tools`); absent: all. */
  onlyTools?: readonly string[];
}

/** Session-wide figures folded from the events: turns so far and cost. */
class SessionTotals {
  nextTurn = 0;
  cost = 0;
  observe(event: SessionEvent): void {
    if (event.type === "turn/start") this.nextTurn = event.turn + 1;
    else if (event.type === "step/end" && event.cost !== null) this.cost += event.cost;
    else if (event.type === "context/compaction" && event.cost !== null) this.cost += event.cost;
  }
}

/** One composed session: what the loop runs with and what the agent controls. */
export interface ComposedSession {
  ctx: RunContext;
  journal: SessionJournal;
  totals: SessionTotals;
  /** True when the session existed before this run. */
  resumed: boolean;
  /** The session's toolbox and spill scope, to dispose with the session. */
  sessionTools: SessionTools;
  /** Set when a SessionStart hook asked to stop: every prompt is then refused. */
  sessionStop: TurnStop | undefined;
  /** The session's subagents, when it offers the `task` tool. */
  subagents: SubagentHost | null;
  /** The questions of `ask_user`, waiting for an answer. */
  questions: QuestionDesk;
  /** The plans of `exit_plan`, waiting for approval. */
  plans: PlanDesk;
  /** Switches the permission mode (guard, subagents, `exit_plan`'s offer) and says so (`agent/mode`). */
  setMode(mode: PermissionMode): void;
  /** USD spent so far against `max_budget_usd`: the session's, its children's, its parent's. */
  spent(): number;
  /** The environment with the provider keys (a command's `model` is resolved in it). */
  env: Env;
  /** Whether the project's settings are trusted (a project command's `allowed-tools`). */
  projectTrusted: boolean;
  /** The project's grant files changed since it was trusted: their grants are refused. */
  changedFiles: ReadonlySet<string>;
}

/** The options with their defaults filled in. */
type OpenOptions = AgentOptions &
  Required<Pick<AgentOptions, "bus" | "loaded" | "env" | "sessionsDir">>;

function withDefaults(given: AgentOptions): OpenOptions {
  const env = given.env ?? process.env;
  const loaded = given.loaded ?? loadConfig({ cwd: given.cwd, env });
  const bus = given.bus ?? createBus<BusEvents>();
  return { ...given, env, loaded, bus, sessionsDir: given.sessionsDir ?? sessionsDir(loaded) };
}

export async function composeSession(given: AgentOptions): Promise<ComposedSession> {
  const options = withDefaults(given);
  const { bus, loaded } = options;
  warmSandbox(loaded.config.sandbox);
  const prepared = preparePolicy(loaded, options.cwd, options.guard ?? {});
  for (const message of prepared.policy.notices)
    bus.emit("agent/notice", { message, source: "policy" });
  const prior = await locateSession(options);
  const resolved = resolveModel(loaded.config, chooseModel(options, prior), options.env);
  const rules = sessionRules(options);
  const system = buildSystemPrompt({
    rules: rules.always,
    cwd: options.cwd,
    home: loaded.home,
    promptFile: loaded.config.system_prompt_file,
    allowedDirs: loaded.config.allowed_prompt_dirs,
    onSkipped: (message) => bus.emit("agent/notice", { message, source: "policy" }),
    ...(options.env.HOME ? { userHome: options.env.HOME } : {}),
  });
  const instructed = options.instructions ? `${system}\n\n${options.instructions}` : system;
  const deriver = new MessageDeriver();
  const tokens = new TokenEstimate();
  const totals = new SessionTotals();
  const webSearches = new WebSearchCount();
  const journal = new SessionJournal(
    (event) => {
      deriver.push(event);
      tokens.observe(event, deriver);
      totals.observe(event);
      webSearches.observe(event);
      rules.scoped.observe(event);
    },
    (event) => bus.emit("session/event", event),
  );
  const effort = new SessionEffort(chooseEffort(options, prior));
  const writer = openLog(options, prior, { ...resolved, effort: effort.level }, journal);
  const ignored = ignoredEffortNotice(
    resolved.provider,
    effort.level,
    loaded.config.thinking.budget_tokens,
  );
  if (ignored) bus.emit("agent/notice", { message: ignored, source: "policy" });
  followInIndex(options, writer.path);
  const subagents = offersSubagents(options)
    ? new SubagentHost({
        options,
        sessionId: writer.id,
        bus,
        model: `${resolved.provider.name}/${resolved.model}`,
        config: loaded.config,
        env: options.env,
        mode: prepared.permissions.mode,
        effort: () => effort.level,
        ownCost: () => totals.cost,
        agents: customAgents(options),
      })
    : null;
  const questions = new QuestionDesk(bus, writer, writer.id);
  const turnNow = () => Math.max(0, totals.nextTurn - 1);
  let guard: SessionGuard | undefined;
  let planTool: PlanToolSource | undefined;
  const modeNow = () => guard?.permissions.mode ?? prepared.permissions.mode;
  const setMode = (mode: PermissionMode) => {
    if (!guard || guard.permissions.mode === mode) return;
    guard.permissions = { ...guard.permissions, mode };
    if (subagents) subagents.mode = mode;
    planTool?.modeChanged();
    bus.emit("agent/mode", { mode });
  };
  const plans = new PlanDesk({ bus, writer, sessionId: writer.id, mode: modeNow, setMode });
  planTool = offersPlans(options) ? exitPlanToolSource(plans, turnNow) : undefined;
  const searxng = loaded.config.web.search.searxng_url;
  const own = [
    ...(subagents ? [taskToolSource(subagents)] : []),
    ...(searxng && offersWebSearch(options)
      ? [webSearchToolSource({ ...loaded.config.web.search, searxng_url: searxng }, webSearches)]
      : []),
    ...((options.questions ?? options.defaultTools !== false)
      ? [askUserToolSource(questions, turnNow)]
      : []),
    ...(planTool ? [planTool.source] : []),
  ];
  const sessionTools = await openToolbox(options, prepared, writer.id, own);
  const tools = sessionTools.toolbox;
  const session = {
    sessionId: writer.id,
    logPath: writer.path,
    cwd: options.cwd,
    spillDir: sessionTools.spillDir,
  };
  const sandbox = sessionTools.workspace.sandbox?.profile("hooks");
  guard = new SessionGuard(prepared, session, {
    env: options.env,
    loaded,
    bus,
    ...(sandbox ? { sandbox } : {}),
  });
  const ctx: RunContext = {
    bus,
    writer,
    deriver,
    config: loaded.config,
    provider: resolved.provider,
    model: resolved.model,
    effort,
    stream: options.stream ?? providerStream,
    count:
      options.countTokens !== undefined
        ? options.countTokens
        : options.stream
          ? null
          : countFor(resolved.provider.kind),
    system: instructed,
    tokens,
    webSearches,
    webSearchOffered: offersWebSearch(options),
    rules: rules.scoped,
    ...summarizerOf(options),
    tools,
    cwd: options.cwd,
    sessionId: writer.id,
    guard,
    plans,
    checkpoints: new CallCheckpoints({
      home: loaded.home,
      sessionId: writer.id,
      cwd: options.cwd,
      config: loaded.config.checkpoints,
      append: (event) => writer.append(event),
      sync: () => writer.sync(),
      history: () => journal.history(),
      notice: (message) => bus.emit("agent/notice", { message, source: "tools" }),
    }),
    sleep: options.sleep ?? realSleep,
    random: options.random ?? Math.random,
    now: options.now ?? Date.now,
  };
  // A rewind of this session killed half way is finished before anything else runs.
  if (prior) {
    await ctx.checkpoints.recover().catch((error: unknown) => {
      const why = errorMessage(error);
      bus.emit("agent/notice", {
        message: `an interrupted rewind could not be finished (${why}): codewhale rewind ${writer.id} --finish`,
        source: "tools",
      });
    });
  }
  const notes = await guard.hooks.sessionStart(prior ? "resume" : "startup");
  applyHookNotes(ctx, totals.nextTurn, "SessionStart", notes);
  const resumed = prior !== null;
  const { parent } = options;
  const spent = parent ? () => parent.spent() : () => (subagents ? subagents.spent() : totals.cost);
  return {
    ctx,
    journal,
    totals,
    resumed,
    sessionTools,
    sessionStop: notes.stop,
    subagents,
    questions,
    plans,
    setMode,
    spent,
    env: options.env,
    projectTrusted: loaded.trust.state === "trusted" || loaded.trust.state === "flag",
    changedFiles: changedGrantPaths(loaded),
  };
}

/**
 * The custom agents the `task` tool offers: the user's, and the project's when it is trusted
 * (`trust` or `--trust`); each file left out is a notice.
 */
function customAgents(options: OpenOptions): AgentDefinition[] {
  const { loaded } = options;
  const project = loaded.projectRoot ?? repositoryRoot(options.cwd) ?? options.cwd;
  const projectTrusted = loaded.trust.state === "trusted" || loaded.trust.state === "flag";
  const changed = changedGrantPaths(loaded);
  const found = loadAgentFiles({ home: loaded.home, project, projectTrusted, changed });
  for (const line of found.skipped) {
    options.bus.emit("agent/notice", {
      message: `agent definition ignored: ${line}`,
      source: "policy",
    });
  }
  return found.agents;
}

/**
 * The skills the `skill` tool offers: the user's, and the project's when it is trusted; each
 * one left out is a notice.
 */
function sessionSkills(options: OpenOptions): SkillDefinition[] {
  const { loaded } = options;
  const project = loaded.projectRoot ?? repositoryRoot(options.cwd) ?? options.cwd;
  const projectTrusted = loaded.trust.state === "trusted" || loaded.trust.state === "flag";
  const userHome = options.env.HOME;
  const changed = changedGrantPaths(loaded);
  const found = loadSkillFiles({ home: loaded.home, userHome, project, projectTrusted, changed });
  for (const line of found.skipped) {
    options.bus.emit("agent/notice", { message: `skill ignored: ${line}`, source: "policy" });
  }
  return found.skills;
}

/**
 * The rule files: those of every session go into the system prompt, those with `paths:` to the
 * calls that first work on a matching file; each one left out is a notice.
 */
function sessionRules(options: OpenOptions): { always: RuleFile[]; scoped: PathRules } {
  const { loaded } = options;
  const project = loaded.projectRoot ?? repositoryRoot(options.cwd) ?? options.cwd;
  const found =
    options.defaultTools === false
      ? { rules: [], skipped: [] }
      : loadRuleFiles({ home: loaded.home, userHome: options.env.HOME, project });
  for (const line of found.skipped) {
    options.bus.emit("agent/notice", { message: `rule file ignored: ${line}`, source: "policy" });
  }
  const always = found.rules.filter((rule) => rule.paths === null);
  return { always, scoped: new PathRules(found.rules, project) };
}

/** The `task` tool: asked for, or with the default tools; never in a subagent's session. */
function offersSubagents(options: OpenOptions): boolean {
  if (options.parent) return false;
  return options.subagents ?? options.defaultTools !== false;
}

/** Web search (either kind): asked for, or with the default tools. */
function offersWebSearch(options: OpenOptions): boolean {
  return options.webSearch ?? options.defaultTools !== false;
}

/** `exit_plan` is the session's own, never a subagent's: a child's plan mode only refuses. */
function offersPlans(options: OpenOptions): boolean {
  if (options.parent) return false;
  return options.plans ?? options.defaultTools !== false;
}

/** `[compaction] model`, resolved (its provider and key checked when the session opens). */
function summarizerOf(options: OpenOptions): Pick<RunContext, "summarizer"> {
  const id = options.loaded.config.compaction.model;
  if (id === undefined) return {};
  return { summarizer: resolveModel(options.loaded.config, id, options.env) };
}

/**
 * The model asked for (`--model`, `/model`: Claude Code's names expanded); on resume without
 * one, the session's own model; else config `model`.
 */
function chooseModel(options: OpenOptions, prior: PriorSession | null): string {
  if (options.modelOverride) {
    const id = expandModelAlias(options.modelOverride);
    splitModelId(id);
    return id;
  }
  if (prior) {
    const { provider, model } = modelInEffect(prior.events);
    if (provider && model) return `${provider}/${model}`;
  }
  return options.loaded.config.model;
}

/** The `--effort` flag; on resume without it, the session's own effort; else config's. */
function chooseEffort(options: OpenOptions, prior: PriorSession | null): Effort | undefined {
  if (options.effortOverride) return options.effortOverride;
  const logged = prior ? effortInEffect(prior.events) : undefined;
  return logged ?? options.loaded.config.thinking.effort;
}

/**
 * Opens the log (new, or resumed and repaired, with a `session/model` when the model changed,
 * a `session/effort` when the effort is set and not the log's),
 * tells the bus (`agent/session-start`) and only then publishes its events.
 */
function openLog(
  options: OpenOptions,
  prior: PriorSession | null,
  resolved: { provider: { name: string }; model: string; effort: Effort | undefined },
  journal: SessionJournal,
): SessionWriter {
  const provider = resolved.provider.name;
  const signer = options.receipts?.signer;
  const reopened = prior ? reopenSession(prior, journal.publish, signer) : null;
  const writer =
    reopened?.writer ??
    SessionWriter.create(
      options.sessionsDir,
      {
        cwd: options.cwd,
        version: VERSION,
        provider,
        model: resolved.model,
        config_fingerprint: configFingerprint(options.loaded.config),
        ...(options.parent
          ? { parent_session_id: options.parent.sessionId, parent_call_id: options.parent.callId }
          : {}),
      },
      {
        publish: journal.publish,
        holdUntilPrompt: true,
        ...(signer ? { signer } : {}),
        ...(options.sessionId ? { id: options.sessionId } : {}),
      },
    );
  options.bus.emit("agent/session-start", { sessionId: writer.id, logPath: writer.path });
  journal.open(reopened?.history);
  const history = reopened ? journal.history() : [];
  // The repair first: it closes a turn the last process left open.
  for (const event of repairEvents(history)) writer.append(event);
  const inEffect = reopened ? modelInEffect(history) : undefined;
  if (inEffect && (inEffect.provider !== provider || inEffect.model !== resolved.model)) {
    writer.append({ type: "session/model", provider, model: resolved.model });
  }
  const effort = resolved.effort;
  if (effort !== undefined && effort !== effortInEffect(history)) {
    writer.append({ type: "session/effort", effort });
  }
  return writer;
}

/**
 * The session's toolbox: the built-in, external and cgc sources (unless `defaultTools` is
 * false), then the surface's own `tools` sources; every notice of theirs goes on the bus.
 */
function openToolbox(
  options: OpenOptions,
  prepared: PreparedPolicy,
  sessionId: string,
  own: readonly ToolSource[],
): Promise<SessionTools> {
  const skills = options.defaultTools === false ? [] : sessionSkills(options);
  const sources = [
    ...(options.tools ?? []),
    ...own,
    ...searchSources(options),
    ...(skills.length > 0 ? [skillToolSource(skills)] : []),
  ];
  return createSessionTools({
    sessionId,
    cwd: options.cwd,
    config: options.loaded.config,
    env: options.env,
    sessionsDir: options.sessionsDir,
    runFiles: (prepared.context.runs ?? []).map((run) => run.path),
    externalTools: prepared.policy.externalTools,
    readGate: readGateFor(prepared.permissions, prepared.context),
    privateHosts: privateHostsFor(prepared.permissions),
    changesNoFile: bashChangesNoFile,
    ...(sources.length > 0 ? { sources } : {}),
    ...(options.defaultTools === false ? { defaultSources: false } : {}),
    ...(options.files ? { files: options.files } : {}),
    ...(options.terminal ? { terminal: options.terminal } : {}),
    ...(options.onlyTools ? { only: options.onlyTools } : {}),
    onNotice: ({ message, level }) => options.bus.emit("agent/notice", { message, source: level }),
  });
}

/**
 * The home's search index follows the session's turns (search/follow.ts): not a subagent's
 * session (its parent's catch-up reads it), nor a session given only its own tools (tests).
 */
function followInIndex(options: OpenOptions, logPath: string): void {
  if (options.parent || options.defaultTools === false) return;
  const follower = followSession({
    home: options.loaded.home,
    sessionsDir: options.sessionsDir,
    logPath,
  });
  const detach = [
    options.bus.on("session/event", (event) => {
      if (event.type === "turn/end") follower.turnEnded();
    }),
  ];
  detach.push(
    options.bus.on("agent/disposed", () => {
      follower.close();
      for (const off of detach) off();
    }),
  );
}

/** The model's session_search over past sessions, unless `[search] scope = "off"`. */
function searchSources(options: OpenOptions): ToolSource[] {
  const scope = options.loaded.config.search.scope;
  if (scope === "off" || options.defaultTools === false) return [];
  const project = options.loaded.projectRoot ?? repositoryRoot(options.cwd) ?? options.cwd;
  const home = options.loaded.home;
  return [sessionSearchSource({ home, sessionsDir: options.sessionsDir, scope, project })];
}

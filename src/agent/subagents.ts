// The subagents of one session (docs/subagents.md): each `task` call (task-tool.ts) opens a
// child Agent with its own log, linked both ways (the child's `session/start` names the parent
// session and call; the call's `tool/result.child` names the child's last line), the parent's
// config, permission rules and mode, hooks, sandbox and output policy, and the parent's budget.
// A child's asks reach the parent's surfaces as the parent's `agent/ask`, labelled with the
// child; its durable events go on the parent's bus as `subagent/event`. Built by
// compose-session.ts; the agent (agent.ts) routes answers here.
import type { AgentDefinition, Config, Env, PermissionMode } from "../config/index.ts";
import { readNative } from "../providers/neutral.ts";
import { terminalSafeLine } from "../runner/index.ts";
import type { Effort, Payload, SessionEvent } from "../session/events.ts";
import { presentToolCall } from "../tools/presentation.ts";
import { markPoliced } from "../tools/tool-output.ts";
import type { ToolContext, ToolResult } from "../tools/types.ts";
import { Agent, type AgentOptions } from "./agent.ts";
import type { AgentBus } from "./bus-events.ts";
import { resolveModelField } from "./model-field.ts";
import type { AgentAsk, AnswerResult, AskDecision } from "./pending-asks.ts";
import { splitModelId } from "./provider-resolve.ts";

/** What a child session knows of its parent (AgentOptions.parent). */
export interface ParentLink {
  sessionId: string;
  /** The parent's `task` call that runs the child. */
  callId: string;
  /** USD spent by the parent and all its children so far: the budget the child checks. */
  spent(): number;
}

/** A `task` call's arguments (task.presenter.ts validates them). */
interface TaskRequest {
  description: string;
  prompt: string;
  agent?: string | undefined;
}

/** The parent session a host runs children for, as compose-session.ts knows it. */
interface HostParent {
  /** The parent's options, defaults filled in: a child is opened with the same. */
  options: AgentOptions;
  sessionId: string;
  bus: AgentBus;
  /** The parent's model in effect, `provider/model`. */
  model: string;
  /** The parent's config and keys: an agent file's `model` is resolved against them. */
  config: Config;
  env: Env;
  /** The parent's permission mode when it opened (`setPermissionMode` updates `mode`). */
  mode: PermissionMode;
  /** The parent's reasoning effort now (`set_effort` changes it mid-session). */
  effort(): Effort | undefined;
  /** USD spent by the parent session itself. */
  ownCost(): number;
  /** The custom agent types a call may name (config/agent-files.ts). */
  agents: readonly AgentDefinition[];
}

/** An ask of a child, shown on the parent's bus until it is answered or its child ends. */
interface RelayedAsk {
  ask: AgentAsk;
  child: Agent;
}

/** How many of a child's latest calls its progress shows. */
const PROGRESS_CALLS = 8;

type ChildLine = NonNullable<Payload<"tool/result">["child"]>;

export class SubagentHost {
  /** The permission mode a child starts in: the parent's now. */
  mode: PermissionMode;
  private childCost = 0;
  private readonly relayed = new Map<string, RelayedAsk>();
  /** The agent files whose `model` was found unusable, each told once. */
  private readonly told = new Set<string>();

  constructor(private readonly parent: HostParent) {
    this.mode = parent.mode;
  }

  /** The custom agent types a `task` call may name. */
  get agents(): readonly AgentDefinition[] {
    return this.parent.agents;
  }

  /** USD spent by the parent and every child so far (what `max_budget_usd` caps). */
  spent(): number {
    return this.parent.ownCost() + this.childCost;
  }

  /** True when `id` is a child's ask shown on the parent's bus. */
  owns(id: string): boolean {
    return this.relayed.has(id);
  }

  /** Answers a child's ask from the parent's surface; the child's own asks decide. */
  answer(id: string, decision: AskDecision): AnswerResult {
    const relayed = this.relayed.get(id);
    if (!relayed) return { ok: false, error: "unknown", message: `no ask ${id} in this session` };
    const result = relayed.child.answer(id, decision);
    if (result.ok) this.relayed.delete(id);
    return result;
  }

  /** The children's asks waiting now. */
  pending(): AgentAsk[] {
    return [...this.relayed.values()].map((relayed) => relayed.ask);
  }

  /** Runs one `task` call: a child session, its prompt, its final answer. */
  async run(request: TaskRequest, ctx: ToolContext): Promise<ToolResult> {
    if (ctx.signal.aborted) {
      return { content: "The subagent was not started: cancelled.", isError: true };
    }
    const agent = request.agent === undefined ? undefined : this.agentNamed(request.agent);
    if (agent === null) {
      const known = this.agents.map((a) => a.name).join(", ") || "none";
      return {
        content: `There is no agent type "${request.agent}" (agent types: ${known}).`,
        isError: true,
      };
    }
    const child = await Agent.open(this.childOptions(ctx.callId, agent));
    let last: SessionEvent | undefined;
    const calls: string[] = [];
    const observe = (event: SessionEvent) => {
      last = event;
      this.observe(child, ctx, event, calls);
    };
    // The events of the opening (its header), then the rest as they come: each exactly once.
    for (const event of child.history()) observe(event);
    child.bus.on("session/event", observe);
    child.bus.on("agent/ask", (ask) => this.relay(child, ctx.callId, request.description, ask));
    child.bus.on("tool/progress", ({ callId: childCallId, tail }) => {
      if (tail === undefined) return;
      const { sessionId } = child;
      this.parent.bus.emit("subagent/progress", {
        callId: ctx.callId,
        sessionId,
        childCallId,
        tail,
      });
    });
    const cancel = () => child.cancel();
    ctx.signal.addEventListener("abort", cancel, { once: true });
    try {
      const outcome = await child.submit(request.prompt);
      await child.close();
      const line = last ? { session_id: child.sessionId, seq: last.seq, h: last.h } : undefined;
      return resultOf(outcome, finalText(child.history()), line);
    } finally {
      ctx.signal.removeEventListener("abort", cancel);
      child.dispose();
      for (const [id, relayed] of this.relayed)
        if (relayed.child === child) this.relayed.delete(id);
    }
  }

  /** The agent type `name`, or null when there is none. */
  private agentNamed(name: string): AgentDefinition | null {
    return this.agents.find((agent) => agent.name === name.toLowerCase()) ?? null;
  }

  private childOptions(callId: string, agent: AgentDefinition | undefined): AgentOptions {
    const { options, sessionId, model } = this.parent;
    const effort = this.parent.effort();
    const {
      bus: _bus,
      resume: _resume,
      continueLatest: _continue,
      sessionId: _id,
      parent: _parent,
      ...shared
    } = options;
    return {
      ...shared,
      modelOverride: this.modelOf(agent) ?? model,
      ...(effort ? { effortOverride: effort } : {}),
      ...(agent?.instructions ? { instructions: agent.instructions } : {}),
      ...(agent?.tools ? { onlyTools: agent.tools } : {}),
      guard: { ...options.guard, mode: this.mode },
      subagents: false,
      parent: { sessionId, callId, spent: () => this.spent() },
    };
  }

  /**
   * The agent file's `model` as a custom command's is read (model-field.ts); undefined: the
   * parent's. One that cannot be used is one notice per file, and its children run on the
   * parent's model.
   */
  private modelOf(agent: AgentDefinition | undefined): string | undefined {
    if (agent?.model === undefined) return undefined;
    const { config, env, model } = this.parent;
    const base = { config, env, ...splitModelId(model) };
    const of = `agent ${agent.name} (${agent.path})`;
    const field = resolveModelField(agent.model, base, of, "its subagents use");
    if (field.notice && !this.told.has(agent.path)) {
      this.told.add(agent.path);
      this.parent.bus.emit("agent/notice", { message: field.notice, source: "policy" });
    }
    return field.model ? `${field.model.provider.name}/${field.model.model}` : undefined;
  }

  /** A child's event: its cost joins the budget; surfaces see it, and its calls as progress. */
  private observe(child: Agent, ctx: ToolContext, event: SessionEvent, calls: string[]): void {
    if ((event.type === "step/end" || event.type === "context/compaction") && event.cost !== null) {
      this.childCost += event.cost;
    }
    this.parent.bus.emit("subagent/event", {
      callId: ctx.callId,
      sessionId: child.sessionId,
      event,
    });
    if (event.type === "tool/call") {
      // The child's calls so far, newest last: what a surface shows in the task call's card.
      const shown = presentToolCall(child.tools.presenter(event.name), event.name, event.arguments);
      const mark = event.decision.outcome === "allow" ? "→" : "✗";
      calls.push(`${mark} ${terminalSafeLine(shown.title)}`);
      const tail = calls.slice(-PROGRESS_CALLS).join("\n");
      ctx.progress?.({ tail, message: shown.title });
    }
  }

  /** Shows a child's ask on the parent's bus; with nobody there to answer, denies it. */
  private relay(child: Agent, callId: string, description: string, ask: AgentAsk): void {
    if (this.parent.bus.listenerCount("agent/ask") === 0) {
      const reason = `${ask.name} needs approval (${ask.reason}) and no surface is attached to answer it.`;
      child.answer(ask.id, { outcome: "deny", by: "default", reason });
      return;
    }
    const shown: AgentAsk = {
      ...ask,
      subagent: { sessionId: child.sessionId, callId, description },
    };
    this.relayed.set(ask.id, { ask: shown, child });
    this.parent.bus.emit("agent/ask", shown);
  }
}

/** The text of the child's last assistant message: its final answer. */
function finalText(events: readonly SessionEvent[]): string {
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i];
    if (event?.type !== "assistant/message") continue;
    const blocks = readNative(event.content);
    return blocks.flatMap((block) => (block.kind === "text" ? [block.text] : [])).join("\n");
  }
  return "";
}

/** The call's result: the final answer, or why the child stopped (a cancel keeps its link). */
function resultOf(
  outcome: { reason: string; error?: string | undefined },
  text: string,
  child: ChildLine | undefined,
): ToolResult {
  const link = child ? { child } : {};
  if (outcome.reason === "completed") {
    return { content: text || "(the subagent finished without a final answer)", ...link };
  }
  if (outcome.reason === "cancelled") {
    // Kept as it is by a cancel (tool-calls.ts keeps a policed result), so the link survives.
    return markPoliced({ content: "The subagent was cancelled.", isError: true, ...link });
  }
  const why = `The subagent stopped (${outcome.reason}): ${outcome.error ?? outcome.reason}.`;
  return { content: text ? `${why}\n\nIts last message:\n${text}` : why, isError: true, ...link };
}

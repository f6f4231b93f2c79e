// An in-process scripted StreamFunction for loop tests: each request takes the next reply
// from a queue (text, thinking, tool calls, a failure, or a custom part generator) and is
// recorded with a deep copy of its messages. Plus a harness that opens an Agent on it, whose
// asks exec's refusal answers unless the test answers them itself (`refuseAsks: false`).
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { Agent, type AgentOptions } from "../../src/agent/agent.ts";
import type { AgentBus, BusEvents } from "../../src/agent/bus-events.ts";
import { createBus } from "../../src/bus/bus.ts";
import { refuseAsks } from "../../src/cli/exec-asks.ts";
import { type ConfigInput, loadConfig } from "../../src/config/index.ts";
import type {
  ProviderFailure,
  ProviderRequest,
  StreamFunction,
  StreamPart,
} from "../../src/providers/index.ts";
import { readNative } from "../../src/providers/neutral.ts";
import type { JsonValue, SessionEvent, Usage } from "../../src/session/events.ts";
import { tempDir } from "../support/session-fixtures.ts";
import { testTools } from "../support/test-tools.ts";

export interface Reply {
  text?: string;
  thinking?: string;
  /** `cut`: the response stopped at its output limit inside this call (the adapters' mark). */
  calls?: Array<{ id: string; name: string; args: unknown; raw?: string; cut?: true }>;
  usage?: Partial<Usage>;
  /** Ends the stream with this failure after the deltas (no message). */
  fail?: Partial<ProviderFailure>;
  /** Waits before each delta, honouring the request's signal. */
  delayMs?: number;
  /** Called with the request when it starts streaming. */
  onStart?: (request: ProviderRequest) => void;
  /** Waited for (or the request's abort) before the first delta. */
  gate?: Promise<void>;
}

export interface Scripted {
  stream: StreamFunction;
  requests: Array<Omit<ProviderRequest, "signal" | "onDelta" | "onToolInputStart">>;
  push(...replies: Reply[]): void;
}

const ZERO: Usage = { input: 0, output: 0, cache_read: 0, cache_write: 0, reasoning: 0 };

export function scripted(...initial: Reply[]): Scripted {
  const queue = [...initial];
  const requests: Scripted["requests"] = [];
  const stream: StreamFunction = (_config, request) => {
    const { signal, onDelta, onToolInputStart, ...rest } = request;
    requests.push(structuredClone(rest));
    const reply = queue.shift() ?? { fail: { message: "no scripted reply" } };
    return play(reply, request);
  };
  return { stream, requests, push: (...replies) => queue.push(...replies) };
}

/**
 * A stream whose replies are chosen by the request's first user message: one queue per prompt
 * (a parent's and each subagent's), so sessions running side by side each take their own.
 */
export function scriptedByPrompt(routes: Record<string, Reply[]>): Scripted {
  const queues = new Map(Object.entries(routes).map(([prompt, replies]) => [prompt, [...replies]]));
  const requests: Scripted["requests"] = [];
  const stream: StreamFunction = (_config, request) => {
    const { signal, onDelta, onToolInputStart, ...rest } = request;
    requests.push(structuredClone(rest));
    const first = request.messages[0];
    const prompt = first?.role === "user" ? first.text : "";
    const reply = queues.get(prompt)?.shift() ?? { fail: { message: `no reply for ${prompt}` } };
    return play(reply, request);
  };
  const push = () => {
    throw new Error("scriptedByPrompt: give every reply in its route");
  };
  return { stream, requests, push };
}

async function* play(reply: Reply, request: ProviderRequest): AsyncGenerator<StreamPart> {
  reply.onStart?.(request);
  yield { type: "start", requestId: "req_scripted" };
  if (reply.gate) await untilAborted(reply.gate, request.signal);
  const content: JsonValue[] = [];
  const deltas: Array<{ block: number; kind: "text" | "thinking" | "tool_input"; delta: string }> =
    [];
  if (reply.thinking) {
    deltas.push(...split(content.length, "thinking", reply.thinking));
    content.push({ type: "thinking", thinking: reply.thinking, signature: "sig" });
  }
  if (reply.text) {
    deltas.push(...split(content.length, "text", reply.text));
    content.push({ type: "text", text: reply.text });
  }
  for (const call of reply.calls ?? []) {
    const raw = call.raw ?? JSON.stringify(call.args);
    deltas.push({ block: content.length, kind: "tool_input", delta: raw });
    content.push({
      type: "tool_use",
      id: call.id,
      name: call.name,
      input: (call.args ?? {}) as JsonValue,
    });
  }
  for (const delta of deltas) {
    if (reply.delayMs) await abortableDelay(reply.delayMs, request.signal);
    if (request.signal.aborted) break;
    yield { type: "delta", ...delta };
  }
  if (request.signal.aborted || reply.fail) {
    const aborted = request.signal.aborted;
    const error: ProviderFailure = {
      message: aborted ? "request cancelled" : "scripted failure",
      status: null,
      requestId: "req_scripted",
      retryable: false,
      partial: deltas.length > 0,
      ...(aborted ? {} : reply.fail),
    };
    yield { type: "error", error };
    return;
  }
  const toolCalls = (reply.calls ?? []).map((c) => ({
    id: c.id,
    name: c.name,
    arguments: c.raw ?? JSON.stringify(c.args),
    ...(c.cut ? { cut: c.cut } : {}),
  }));
  const cut = toolCalls.some((call) => call.cut);
  yield {
    type: "message",
    api: "anthropic",
    content,
    stopReason: cut ? "max_tokens" : toolCalls.length > 0 ? "tool_use" : "end_turn",
    requestId: "req_scripted",
    toolCalls,
    usage: { ...ZERO, input: 100, output: 10, ...reply.usage },
  };
}

function split(block: number, kind: "text" | "thinking", text: string) {
  const out = [];
  for (let i = 0; i < text.length; i += 4) out.push({ block, kind, delta: text.slice(i, i + 4) });
  return out;
}

function untilAborted(gate: Promise<void>, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return Promise.race([
    gate,
    new Promise<void>((resolve) =>
      signal.addEventListener("abort", () => resolve(), { once: true }),
    ),
  ]);
}

function abortableDelay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}

export interface Harness {
  agent: Agent;
  bus: AgentBus;
  events: SessionEvent[];
  home: string;
  sessions: string;
  workspace: string;
  sleeps: number[];
}

/** Opens an agent on a scripted stream in temp dirs; `flags` are config overrides. */
export async function openHarness(
  script: Scripted,
  options: {
    flags?: ConfigInput;
    home?: string;
    workspace?: string;
    refuseAsks?: boolean;
  } & Partial<AgentOptions> = {},
): Promise<Harness> {
  const home = options.home ?? tempDir("cw-home-");
  const workspace = options.workspace ?? tempDir("cw-ws-");
  mkdirSync(workspace, { recursive: true });
  const env = { CODEWHALE_HOME: home, ANTHROPIC_API_KEY: "sk-ant-api03-test" };
  const loaded = loadConfig({ cwd: workspace, env, flags: options.flags ?? {} });
  const bus = createBus<BusEvents>();
  const events: SessionEvent[] = [];
  bus.on("session/event", (event) => void events.push(event));
  const sleeps: number[] = [];
  const sessions = join(home, "sessions");
  const {
    flags: _flags,
    home: _home,
    workspace: _workspace,
    refuseAsks: refuse,
    ...rest
  } = options;
  const agent = await Agent.open({
    bus,
    loaded,
    env,
    cwd: workspace,
    sessionsDir: sessions,
    tools: testTools(),
    defaultTools: false,
    stream: script.stream,
    sleep: async (ms) => void sleeps.push(ms),
    random: () => 0.5,
    ...rest,
  });
  if (refuse !== false) refuseAsks(agent);
  // Every test of the loop also checks that no turn ends with a call left unanswered.
  const submit = agent.submit.bind(agent);
  agent.submit = async (text) => {
    const outcome = await submit(text);
    assertCallsAnswered(events);
    return outcome;
  };
  return { agent, bus, events, home, sessions, workspace, sleeps };
}

/**
 * The loop's invariant: a turn never ends with a tool call of the model that was neither run
 * nor answered with an error result. Throws naming each such call of an ended turn.
 */
export function assertCallsAnswered(events: SessionEvent[]): void {
  const ended = new Set(events.flatMap((e) => (e.type === "turn/end" ? [e.turn] : [])));
  const answered = new Set(events.flatMap((e) => (e.type === "tool/result" ? [e.call_id] : [])));
  const unanswered = events.flatMap((event) => {
    if (event.type !== "assistant/message" || !ended.has(event.turn)) return [];
    return readNative(event.content).flatMap((block) =>
      block.kind === "tool_call" && !answered.has(block.id) ? [`${block.name} ${block.id}`] : [],
    );
  });
  if (unanswered.length > 0) {
    throw new Error(`a turn ended with calls neither run nor answered: ${unanswered.join(", ")}`);
  }
}

export function types(events: SessionEvent[]): string[] {
  return events.map((event) => event.type);
}

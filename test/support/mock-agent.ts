// An Agent (src/agent/index.ts) in-process against the loopback mock provider, for the loop's
// behaviours per wire format without starting the CLI: the home and keys provider-env.ts makes,
// the model of each kind, exec's tool set for child-process tests (echo, sleep, the recording
// bash and write of test-tools.ts) and exec's answer to asks (refused). The CLI tests keep one
// run per output format; these carry the loop's cases that need no CLI.
import { join } from "node:path";
import type { BusEvents } from "../../src/agent/bus-events.ts";
import { Agent, type AgentOptions } from "../../src/agent/index.ts";
import { createBus } from "../../src/bus/bus.ts";
import { refuseAsks } from "../../src/cli/exec-asks.ts";
import { loadConfig } from "../../src/config/index.ts";
import type { ProviderApi } from "../../src/providers/index.ts";
import type { SessionEvent } from "../../src/session/events.ts";
import { staticToolSource } from "../../src/tools/source.ts";
import type { MockProvider } from "./mock-provider/index.ts";
import { type ExecEnv, execEnv, MODEL_OF } from "./provider-env.ts";
import {
  echoTool,
  recordingBashTool,
  recordingWriteTool,
  sleepTool,
  type ToolRecord,
} from "./test-tools.ts";

export interface MockAgent {
  agent: Agent;
  setup: ExecEnv;
  /** Every session event, in order, as the bus carried them. */
  events: SessionEvent[];
  /** What the recording bash and write were asked to run. */
  ran: ToolRecord[];
  /** Every `agent/notice` message, from the session's opening on. */
  notices: string[];
}

export interface MockAgentOptions {
  /** Appended to the home's config.toml (as execEnv's `extraToml`). */
  toml?: string;
  /** exec's tool set for child-process tests (default) or the built-in tools. */
  tools?: "test" | "builtin";
  guard?: AgentOptions["guard"];
  /** The home and workspace of an earlier agent (to resume one of its sessions). */
  setup?: ExecEnv;
  /** A session id of `setup`'s to resume. */
  resume?: string;
  /** Offer web search (the test tool set has none unless asked). */
  webSearch?: boolean;
  /** Another `provider/model` than `kind`'s (a provider `toml` configures at the mock). */
  model?: string;
  /** `--effort`. */
  effort?: AgentOptions["effortOverride"];
  /** Offer the `task` tool (the test tool set has none unless asked). */
  subagents?: boolean;
}

/** Opens an agent on `kind`'s model in a fresh home and workspace; close it with `agent.close()`. */
export async function openMockAgent(
  mock: MockProvider,
  kind: ProviderApi,
  options: MockAgentOptions = {},
): Promise<MockAgent> {
  const setup = options.setup ?? execEnv(mock, options.toml);
  const model = options.model ?? MODEL_OF[kind];
  const loaded = loadConfig({ cwd: setup.workspace, env: setup.env, flags: { model } });
  const ran: ToolRecord[] = [];
  const tools = [echoTool, sleepTool, recordingBashTool(ran), recordingWriteTool(ran)];
  const bus = createBus<BusEvents>();
  const events: SessionEvent[] = [];
  bus.on("session/event", (event) => void events.push(event));
  const notices: string[] = [];
  bus.on("agent/notice", ({ message }) => void notices.push(message));
  const agent = await Agent.open({
    bus,
    loaded,
    env: setup.env,
    cwd: setup.workspace,
    sessionsDir: join(setup.home, "sessions"),
    ...(options.tools === "builtin"
      ? {}
      : { tools: [staticToolSource("test", tools)], defaultTools: false }),
    ...(options.guard ? { guard: options.guard } : {}),
    ...(options.resume ? { resume: options.resume } : {}),
    ...(options.webSearch !== undefined ? { webSearch: options.webSearch } : {}),
    ...(options.effort ? { effortOverride: options.effort } : {}),
    ...(options.subagents !== undefined ? { subagents: options.subagents } : {}),
  });
  refuseAsks(agent);
  return { agent, setup, events, ran, notices };
}

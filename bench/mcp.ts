// MCP servers (`npm run bench -- mcp`), in process against the SDK-built test server over
// stdio: (1) session open with three servers (start delays 0, 100 and 200 ms): time from
// Agent.open to the first model request, beside the slowest server's own start-up measured
// alone (spawn, handshake, tool list) and the same open with no server, all in this run;
// (2) one tool call through the session's tool (validation, the SDK client, result text, the
// output policy) beside the same call straight through an SDK Client, on the same server.
// BENCH_QUICK=1 runs fewer rounds. Imported by bench/run.ts.

import { performance } from "node:perf_hooks";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import type { McpServerConfig } from "../src/config/index.ts";
import { DEFAULT_OUTPUT_POLICY } from "../src/runner/index.ts";
import { createMcpTool, McpConnection } from "../src/tools/mcp/index.ts";
import { openHarness, scripted } from "../test/agent/scripted.ts";
import { testServerPath } from "../test/support/mcp-servers.ts";
import { tempDir } from "../test/support/session-fixtures.ts";

const QUICK = process.env.BENCH_QUICK === "1";
const OPENS = QUICK ? 3 : 9;
const CALLS = QUICK ? 50 : 400;
const DELAYS = [0, 100, 200];

function server(delay: number): McpServerConfig {
  return {
    command: process.execPath,
    args: [testServerPath()],
    env: { MCP_TEST_START_DELAY_MS: String(delay) },
    headers: {},
    enabled: true,
    startup_timeout_ms: 30_000,
    tool_timeout_ms: 30_000,
    exclude_tools: [],
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

const transportOptions = () => ({ env: process.env, vars: process.env, cwd: process.cwd() });
const quiet = { toolsChanged: () => {}, notice: () => {} };

/** One server started alone: spawn, handshake and tool list, as a session does it. */
async function startAlone(delay: number): Promise<number> {
  const started = performance.now();
  const result = await McpConnection.start("s", server(delay), transportOptions(), quiet);
  const ms = performance.now() - started;
  if (!result.ok) throw new Error(result.reason);
  await result.connection.close();
  return ms;
}

/** Agent.open to the first request, with `servers` configured. */
async function openToFirstRequest(servers: Record<string, McpServerConfig>): Promise<number> {
  let first = 0;
  const onStart = () => {
    if (first === 0) first = performance.now();
  };
  const script = scripted({ text: "ok", onStart });
  const started = performance.now();
  const h = await openHarness(script, {
    flags: { mcp_servers: servers } as never,
    tools: [],
    defaultTools: true,
    guard: { mode: "bypass" },
    env: { PATH: process.env.PATH ?? "", ANTHROPIC_API_KEY: "sk-ant-api03-bench" },
  });
  await h.agent.submit("go");
  await h.agent.close();
  return first - started;
}

async function benchOpen(): Promise<string[]> {
  const three = Object.fromEntries(DELAYS.map((delay, i) => [`s${i}`, server(delay)]));
  await openToFirstRequest(three); // warm-up: page cache, the bundle
  const none: number[] = [];
  const withServers: number[] = [];
  const slowest: number[] = [];
  for (let i = 0; i < OPENS; i++) {
    none.push(await openToFirstRequest({}));
    withServers.push(await openToFirstRequest(three));
    slowest.push(Math.max(...(await Promise.all(DELAYS.map(startAlone)))));
  }
  const open = median(withServers);
  const alone = median(slowest);
  return [
    `session open to first request, no MCP server: ${median(none).toFixed(0)} ms (median of ${OPENS})`,
    `slowest of three servers started alone (delays ${DELAYS.join("/")} ms): ${alone.toFixed(0)} ms`,
    `session open to first request, three servers: ${open.toFixed(0)} ms`,
    `added beyond the slowest server's start-up: ${(open - alone).toFixed(0)} ms (target <= 150)`,
  ];
}

async function benchCall(): Promise<string[]> {
  const started = await McpConnection.start("s", server(0), transportOptions(), quiet);
  if (!started.ok) throw new Error(started.reason);
  const connection = started.connection;
  const echo = connection.tools().find((tool) => tool.name === "echo");
  if (!echo) throw new Error("the test server has no echo tool");
  const made = await createMcpTool("s", echo, connection);
  if (!made.ok) throw new Error(made.problem);
  const tool = made.tool;
  const ctx = {
    signal: new AbortController().signal,
    cwd: tempDir("cw-bench-mcp-"),
    sessionId: "bench",
    callId: "c",
    output: { policy: () => ({ ...DEFAULT_OUTPUT_POLICY, spillToTemp: false }), spill: null },
  };
  const raw = new Client({ name: "bench", version: "0" });
  await raw.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [testServerPath()],
      stderr: "pipe",
    }),
  );
  const args = { text: "hello from the bench" };
  const ours: number[] = [];
  const direct: number[] = [];
  for (let i = 0; i < CALLS + 20; i++) {
    const a = performance.now();
    const checked = tool.input.check(args);
    if (!checked.ok) throw new Error(checked.issues.join("; "));
    const result = await tool.run(checked.value, ctx);
    const b = performance.now();
    await raw.callTool({ name: "echo", arguments: args }, CallToolResultSchema);
    const c = performance.now();
    if (result.content !== "echo: hello from the bench") throw new Error(result.content);
    if (i >= 20) {
      ours.push(b - a);
      direct.push(c - b);
    }
  }
  await raw.close();
  await connection.close();
  const o = median(ours);
  const d = median(direct);
  return [
    `tool call straight through an SDK Client (the server's and transport's own time): ${d.toFixed(3)} ms (median of ${CALLS})`,
    `tool call through the session's tool (validate, client, result text, output policy): ${o.toFixed(3)} ms`,
    `added by codewhale: ${(o - d).toFixed(3)} ms (target <= 2)`,
  ];
}

export async function benchMcp(): Promise<string[]> {
  return [...(await benchOpen()), ...(await benchCall())];
}

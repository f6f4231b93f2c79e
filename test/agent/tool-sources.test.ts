// Tool sources in the loop: AgentOptions.tools adds sources to the session's own (a clash
// keeps the built-in, with one notice); an MCP-shaped source with a slow start, a refused
// schema and JSON-Schema inputs; and a list that changes mid-turn, which reaches the requests
// (recorded by the loopback mock provider) only from the next turn, as one `tools/changed`.
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { Agent } from "../../src/agent/agent.ts";
import type { BusEvents } from "../../src/agent/bus-events.ts";
import { createBus } from "../../src/bus/bus.ts";
import { renderEventLines } from "../../src/cli/session-render.ts";
import { loadConfig } from "../../src/config/index.ts";
import type { EventOf, SessionEvent } from "../../src/session/events.ts";
import { readSession } from "../../src/session/reader.ts";
import { staticToolSource } from "../../src/tools/source.ts";
import { type FakeTool, fakeToolSource } from "../support/fake-tool-source.ts";
import { useMockProvider } from "../support/mock-provider/index.ts";
import { fakeKey } from "../support/provider-env.ts";
import { tempDir } from "../support/session-fixtures.ts";
import { echoTool, recordingBashTool } from "../support/test-tools.ts";
import { openHarness, scripted } from "./scripted.ts";

function ofType<T extends SessionEvent["type"]>(events: SessionEvent[], type: T): EventOf<T>[] {
  return events.filter((e): e is EventOf<T> => e.type === type);
}

const COUNT_SCHEMA = {
  type: "object",
  properties: { name: { type: "string" }, count: { type: "integer", minimum: 1 } },
  required: ["name"],
  additionalProperties: false,
};

describe("tool sources in a session", () => {
  it("AgentOptions.tools adds a source to the built-ins; a clash keeps the built-in, with one notice", async () => {
    const notices: string[] = [];
    const ran: Array<{ tool: string; args: unknown }> = [];
    const extra = staticToolSource("plugin:extra", [echoTool, recordingBashTool(ran)]);
    const script = scripted(
      { calls: [{ id: "c1", name: "bash", args: { command: "echo from-builtin" } }] },
      { text: "done" },
      { text: "again" },
    );
    const h = await openHarness(script, {
      tools: [extra],
      defaultTools: true,
      guard: { mode: "bypass" },
      env: { ANTHROPIC_API_KEY: "sk-ant-api03-test", PATH: process.env.PATH ?? "" },
      bus: busWith(notices),
    });
    const names = h.agent.tools.names();
    for (const builtin of ["bash", "read", "write", "edit", "todo_write"]) {
      assert.ok(names.includes(builtin), `${builtin} is offered`);
    }
    assert.ok(names.includes("echo"), "the added source's own tool is offered");
    assert.equal(names.filter((name) => name === "bash").length, 1);
    await h.agent.submit("go");
    await h.agent.submit("and again");
    h.agent.dispose();
    assert.deepEqual(ran, [], "the source's bash never ran: the built-in did");
    const result = ofType(logOf(h.agent), "tool/result")[0];
    assert.match(result?.content ?? "", /^from-builtin\n\[exit code 0\]$/);
    const sent = script.requests[0]?.tools.map((tool) => tool.name) ?? [];
    assert.deepEqual(sent, names, "the request carries the merged list, built-ins first");
    assert.equal(sent.indexOf("bash"), 0);
    const clashes = notices.filter((line) => line.includes('"bash"'));
    assert.deepEqual(clashes, [
      'tool "bash" from plugin:extra is not offered: builtin has a tool of that name',
    ]);
  });

  it("an MCP-shaped source: slow start, a refused schema as a notice, JSON-Schema inputs validated with one-line errors", async () => {
    const notices: string[] = [];
    const source = fakeToolSource(
      "mcp:fake",
      [
        { name: "count", inputSchema: COUNT_SCHEMA, kind: "read" },
        { name: "broken", inputSchema: { type: "object", properties: { a: { type: "nope" } } } },
      ],
      { startupMs: 50 },
    );
    const script = scripted(
      {
        calls: [
          { id: "c1", name: "count", args: { count: 1.5, extra: true } },
          { id: "c2", name: "count", args: { name: "sheep", count: 3 } },
          { id: "c3", name: "broken", args: {} },
        ],
      },
      { text: "done" },
    );
    const h = await openHarness(script, {
      tools: [source],
      guard: { mode: "bypass" },
      bus: busWith(notices),
    });
    await h.agent.submit("count");
    h.agent.dispose();
    assert.ok(
      notices.some((line) =>
        /^mcp:fake: tool broken left out: the input schema is not valid/.test(line),
      ),
      notices.join("\n"),
    );
    const results = ofType(logOf(h.agent), "tool/result").map((r) => [
      r.call_id,
      r.content,
      r.is_error,
    ]);
    assert.deepEqual(results, [
      [
        "c1",
        "invalid arguments: name: is required; extra: is not allowed here; count: must be integer",
        true,
      ],
      // Refused calls get their result when recorded, before any call runs.
      ["c3", 'unknown tool "broken" (available tools: count)', true],
      ["c2", "count ran", false],
    ]);
    assert.deepEqual(source.calls, [{ tool: "count", args: { name: "sheep", count: 3 } }]);
    assert.equal(source.disposed, true, "closing the session disposes the source");
    const spec = script.requests[0]?.tools.find((tool) => tool.name === "count");
    assert.deepEqual(spec?.inputSchema, COUNT_SCHEMA, "the model reads the server's schema");
  });
});

describe("a tool list that changes mid-turn", () => {
  const mock = useMockProvider();

  it("keeps the turn's requests on the old list and records tools/changed at the next turn", async () => {
    const late = { name: "late", inputSchema: COUNT_SCHEMA };
    const toggle: FakeTool = {
      name: "toggle",
      inputSchema: { type: "object" },
      // As a server would: the call makes it list another tool and a new description.
      call: async () => {
        await source.change([{ ...toggle, description: "toggle, now documented" }, late]);
        return { content: "toggled" };
      },
    };
    const source = fakeToolSource("mcp:fake", [toggle]);
    const home = tempDir("cw-home-");
    const workspace = tempDir("cw-ws-");
    mkdirSync(workspace, { recursive: true });
    const env = {
      CODEWHALE_HOME: home,
      ANTHROPIC_API_KEY: fakeKey("anthropic"),
      ANTHROPIC_BASE_URL: mock.url,
    };
    const loaded = loadConfig({ cwd: workspace, env, flags: { model: "anthropic/claude-mock-1" } });
    const bus = createBus<BusEvents>();
    const agent = await Agent.open({
      bus,
      loaded,
      env,
      cwd: workspace,
      sessionsDir: join(home, "sessions"),
      tools: [source],
      defaultTools: false,
      guard: { mode: "bypass" },
    });
    mock.enqueue({ blocks: [{ kind: "tool", id: "toolu_1", name: "toggle", input: {} }] });
    mock.enqueue({ blocks: [{ kind: "text", text: "toggled it" }] });
    mock.enqueue({ blocks: [{ kind: "text", text: "second turn" }] });
    const first = await agent.submit("toggle");
    const second = await agent.submit("what now?");
    agent.dispose();
    assert.equal(first.reason, "completed");
    assert.equal(second.reason, "completed");
    const sent = mock.requests.map((request) =>
      JSON.stringify(request.body && (request.body as { tools: unknown }).tools),
    );
    assert.equal(sent.length, 3);
    assert.equal(sent[1], sent[0], "inside the turn the tools in the request stay the same");
    assert.notEqual(sent[2], sent[1], "the next turn carries the new list");
    const tools = (
      mock.requests[2]!.body as { tools: Array<{ name: string; description: string }> }
    ).tools;
    // The provider's own web_search server tool rides along on Anthropic (docs/web.md).
    const named = tools.filter((tool) => tool.name !== "web_search");
    assert.deepEqual(
      named.map((tool) => [tool.name, tool.description]),
      [
        ["toggle", "toggle, now documented"],
        ["late", "late (from mcp:fake)"],
      ],
    );
    const events = readSession(agent.logPath).events;
    const changes = ofType(events, "tools/changed");
    assert.deepEqual(
      changes.map(({ turn, tools: list, added, removed, changed }) => ({
        turn,
        list,
        added,
        removed,
        changed,
      })),
      [
        {
          turn: 1,
          list: [
            { name: "toggle", source: "mcp:fake", kind: "other" },
            { name: "late", source: "mcp:fake", kind: "other" },
          ],
          added: ["late"],
          removed: [],
          changed: ["toggle"],
        },
      ],
    );
    const shown = renderEventLines(events).filter((line) => line.includes("tools/changed"));
    assert.deepEqual(
      shown.map((line) => line.replace(/^#\d+ /, "")),
      ["tools/changed from turn 1: +late ~toggle"],
      "sessions show names the change",
    );
    const order = events.map((event) => event.type).filter((type) => type !== "assistant/chunk");
    const at = order.indexOf("tools/changed");
    assert.deepEqual(order.slice(at - 2, at + 2), [
      "user/message",
      "turn/start",
      "tools/changed",
      "step/start",
    ]);
  });
});

function logOf(agent: Agent): SessionEvent[] {
  return readSession(agent.logPath).events;
}

/** A bus that collects every notice from the moment the agent opens. */
function busWith(notices: string[]) {
  const bus = createBus<BusEvents>();
  bus.on("agent/notice", ({ message }) => void notices.push(message));
  return bus;
}

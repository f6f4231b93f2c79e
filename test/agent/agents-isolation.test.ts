// Several agents in one process (as ACP serves many sessions): each has its own session, bus,
// tools and asks. Two run at once through the loopback mock provider with the real tools, in
// different workspaces; their events, tools' cwd, asks and cancellation stay apart.
import assert from "node:assert/strict";
import { mkdtempSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { Agent, type SubmitOutcome } from "../../src/agent/agent.ts";
import type { BusEvents } from "../../src/agent/bus-events.ts";
import type { AgentAsk } from "../../src/agent/pending-asks.ts";
import { createBus } from "../../src/bus/bus.ts";
import { loadConfig } from "../../src/config/index.ts";
import type { SessionEvent } from "../../src/session/events.ts";
import {
  type MockProvider,
  type Script,
  startMockProvider,
} from "../support/mock-provider/index.ts";
import { fakeKey } from "../support/provider-env.ts";

const bash = (id: string, command: string): Script => ({
  blocks: [{ kind: "tool", id, name: "bash", input: { command } }],
});
const text = (answer: string): Script => ({ blocks: [{ kind: "text", text: answer }] });

interface Opened {
  agent: Agent;
  workspace: string;
  events: SessionEvent[];
  asks: AgentAsk[];
  /** Resolves with the n-th ask (1-based). */
  nthAsk(n: number): Promise<AgentAsk>;
}

async function openAgent(mock: MockProvider, name: string): Promise<Opened> {
  const home = mkdtempSync(join(tmpdir(), `cw-iso-home-${name}-`));
  const workspace = realpathSync(mkdtempSync(join(tmpdir(), `cw-iso-ws-${name}-`)));
  const env = {
    PATH: process.env.PATH ?? "",
    CODEWHALE_HOME: home,
    ANTHROPIC_API_KEY: fakeKey("anthropic"),
    ANTHROPIC_BASE_URL: mock.url,
  };
  const loaded = loadConfig({ cwd: workspace, env, flags: { model: "anthropic/claude-mock-1" } });
  const bus = createBus<BusEvents>();
  const events: SessionEvent[] = [];
  const asks: AgentAsk[] = [];
  const waiters: Array<{ n: number; resolve: (ask: AgentAsk) => void }> = [];
  bus.on("session/event", (event) => void events.push(event));
  bus.on("agent/ask", (ask) => {
    asks.push(ask);
    for (const waiter of waiters) if (waiter.n === asks.length) waiter.resolve(ask);
  });
  const sessionsDir = join(home, "sessions");
  const agent = await Agent.open({ bus, loaded, env, cwd: workspace, sessionsDir });
  const nthAsk = (n: number) =>
    new Promise<AgentAsk>((resolve) => {
      const ready = asks[n - 1];
      if (ready) resolve(ready);
      else waiters.push({ n, resolve });
    });
  return { agent, workspace, events, asks, nthAsk };
}

function resultsOf(events: SessionEvent[]): string[] {
  return events.flatMap((e) => (e.type === "tool/result" ? [e.content] : []));
}

describe("two agents in one process", () => {
  let mockA: MockProvider;
  let mockB: MockProvider;
  before(async () => {
    mockA = await startMockProvider();
    mockB = await startMockProvider();
  });
  after(async () => {
    await mockA.close();
    await mockB.close();
  });

  it("keep their events, tools' cwd, asks and cancellation apart", async () => {
    mockA.enqueue(bash("a1", "pwd"), text("A is done"));
    mockB.enqueue(bash("b1", "pwd"), bash("b2", "sleep 30"), text("never"));
    const a = await openAgent(mockA, "a");
    const b = await openAgent(mockB, "b");
    const runningA = a.agent.submit("task for A");
    const runningB = b.agent.submit("task for B");

    const firstOfB = await b.nthAsk(1);
    assert.deepEqual(b.agent.answer(firstOfB.id, { outcome: "allow" }), { ok: true });
    const askA = await a.nthAsk(1);
    const waitingB = await b.nthAsk(2);
    // An ask is answered only on its own agent.
    assert.equal(
      (a.agent.answer(waitingB.id, { outcome: "allow" }) as { error?: string }).error,
      "unknown",
    );
    assert.equal(
      (b.agent.answer(askA.id, { outcome: "allow" }) as { error?: string }).error,
      "unknown",
    );
    assert.deepEqual(a.agent.pendingAsks(), [askA]);
    assert.deepEqual(b.agent.pendingAsks(), [waitingB]);

    // Cancelling B ends B's turn and B's ask; A's ask still waits, and A goes on.
    b.agent.cancel();
    const outcomeB: SubmitOutcome = await runningB;
    assert.equal(outcomeB.reason, "cancelled");
    assert.deepEqual(a.agent.pendingAsks(), [askA]);
    assert.equal(a.agent.running, true);
    assert.deepEqual(a.agent.answer(askA.id, { outcome: "allow" }), { ok: true });
    assert.equal((await runningA).reason, "completed");
    a.agent.dispose();
    b.agent.dispose();

    // Each tool ran in its own agent's workspace.
    const [pwdA] = resultsOf(a.events);
    const [pwdB, sleptB] = resultsOf(b.events);
    assert.ok(pwdA?.includes(a.workspace) && !pwdA.includes(b.workspace), pwdA);
    assert.ok(pwdB?.includes(b.workspace) && !pwdB.includes(a.workspace), pwdB);
    assert.match(sleptB ?? "", /not run/);
    // Each bus carried only its own session's events, each provider only its own requests.
    for (const [opened, other] of [
      [a, b],
      [b, a],
    ] as const) {
      const ids = new Set(
        opened.events.map((e) => (e.type === "session/start" ? e.session_id : "")),
      );
      assert.ok(ids.has(opened.agent.sessionId) && !ids.has(other.agent.sessionId));
      assert.deepEqual(
        opened.agent.history().map((e) => e.seq),
        opened.events.map((e) => e.seq),
      );
    }
    assert.ok(JSON.stringify(a.events).includes("task for A"));
    assert.ok(!JSON.stringify(a.events).includes("task for B"));
    assert.equal(mockA.requests.length, 2);
    assert.equal(mockB.requests.length, 2);
    assert.ok(mockA.requests.every((r) => !r.raw.includes("task for B")));
    assert.ok(mockB.requests.every((r) => !r.raw.includes("task for A")));
  });
});

// A tool call the model is still writing reaches a surface, in each wire format through the
// real SDK and the loopback mock: `tool/input-start` (call id, tool name, block) on the bus,
// after everything streamed before it, then the call's arguments as the `tool_input` chunks
// of that block, then its `tool/call`; the log itself holds no event for the start.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { Agent, type BusEvents, type ToolInputStarted } from "../../src/agent/index.ts";
import { createBus } from "../../src/bus/bus.ts";
import { loadConfig } from "../../src/config/index.ts";
import type { SessionEvent } from "../../src/session/events.ts";
import { execEnv, KINDS, MODEL_OF } from "../support/exec-harness.ts";
import { useMockProvider } from "../support/mock-provider/index.ts";

type Seen = { live: ToolInputStarted } | { event: SessionEvent };

const content = Array.from({ length: 40 }, (_, n) => `line ${n + 1}`).join("\n");

describe("tool input streaming to surfaces", () => {
  const mock = useMockProvider();

  for (const kind of KINDS) {
    it(`${kind}: the start, then the arguments as tool_input chunks, then the tool/call`, async () => {
      const setup = execEnv(mock);
      mock.enqueue(
        {
          blocks: [
            { kind: "text", text: "I will write the notes." },
            { kind: "tool", id: "call_w1", name: "write", input: { path: "notes.md", content } },
          ],
        },
        { blocks: [{ kind: "text", text: "Done." }] },
      );
      const loaded = loadConfig({
        cwd: setup.workspace,
        env: setup.env,
        flags: { model: MODEL_OF[kind] },
      });
      const bus = createBus<BusEvents>();
      const seen: Seen[] = [];
      bus.on("session/event", (event) => void seen.push({ event }));
      bus.on("tool/input-start", (live) => void seen.push({ live }));
      const sessionsDir = join(setup.home, "sessions");
      const agent = await Agent.open({
        bus,
        loaded,
        env: setup.env,
        cwd: setup.workspace,
        sessionsDir,
      });
      const outcome = await agent.dispatch({ type: "prompt", text: "write the notes" });
      await agent.close();
      assert.equal(outcome.reason, "completed");

      const starts = seen.flatMap((s) => ("live" in s ? [s.live] : []));
      assert.equal(starts.length, 1, "one start for the one call");
      const [start] = starts;
      assert.ok(start);
      assert.deepEqual(
        { callId: start.callId, tool: start.tool, turn: start.turn, step: start.step },
        { callId: "call_w1", tool: "write", turn: 0, step: 0 },
      );
      const at = seen.findIndex((s) => "live" in s);
      const events = seen.map((s) => ("event" in s ? s.event : undefined));
      const index = (test: (event: SessionEvent) => boolean) =>
        events.findIndex((event) => event !== undefined && test(event));
      const lastText = events.findLastIndex(
        (e) => e?.type === "assistant/chunk" && e.kind === "text" && e.step === 0,
      );
      assert.ok(lastText >= 0 && lastText < at, "the answer streamed before it is shown first");
      const inputChunks = events.flatMap((e, i) =>
        e?.type === "assistant/chunk" && e.kind === "tool_input" && e.block === start.block
          ? [{ i, delta: e.delta }]
          : [],
      );
      assert.ok(inputChunks.length >= 1);
      assert.ok(
        inputChunks.every(({ i }) => i > at),
        "the arguments stream after the start",
      );
      const joined = inputChunks.map(({ delta }) => delta).join("");
      assert.deepEqual(JSON.parse(joined), { path: "notes.md", content });
      const call = index((e) => e.type === "tool/call" && e.call_id === "call_w1");
      assert.ok(call > (inputChunks.at(-1)?.i ?? Number.POSITIVE_INFINITY), "then the call");

      const log = readFileSync(agent.logPath, "utf8");
      assert.doesNotMatch(log, /input-start|input_start/, "the start is live only");
    });
  }
});

// A minimal surface on the agent API (docs/architecture.md, "Surface API"): subscribe, submit,
// answer asks, print. Run: node --import tsx docs/examples/minimal-surface.ts "<prompt>".
// test/agent/minimal-surface.test.ts runs it against the mock provider, so it stays true.
import { createInterface } from "node:readline/promises";
import { Agent } from "../../src/agent/agent.ts";
import type { BusEvents } from "../../src/agent/bus-events.ts";
import { createBus } from "../../src/bus/bus.ts";
import { loadConfig, sessionsDir } from "../../src/config/index.ts";

const cwd = process.cwd();
const loaded = loadConfig({ cwd, env: process.env });
const bus = createBus<BusEvents>();
const terminal = createInterface({ input: process.stdin, output: process.stderr });

// Render from the durable events only: the answer as it streams, each call's decision.
bus.on("session/event", (event) => {
  if (event.type === "assistant/chunk" && event.kind === "text") process.stdout.write(event.delta);
  if (event.type === "tool/call") console.error(`[${event.name}: ${event.decision.outcome}]`);
});
// A tool call waits for approval until someone answers (or the turn ends).
bus.on("agent/ask", async (ask) => {
  const reply = await terminal.question(`${ask.presentation.title}: ${ask.reason}. Allow? [y/N] `);
  const allowed = reply.trim().toLowerCase() === "y";
  agent.answer(ask.id, allowed ? { outcome: "allow" } : { outcome: "deny" });
});

const agent = await Agent.open({
  bus,
  loaded,
  env: process.env,
  cwd,
  sessionsDir: sessionsDir(loaded),
});
const outcome = await agent.submit(process.argv[2] ?? "Say hello.");
process.stdout.write("\n");
terminal.close();
await agent.close();
process.exitCode = outcome.reason === "completed" ? 0 : 1;

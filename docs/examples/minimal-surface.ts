// The minimal surface (src/agent/README.md): open, subscribe, submit, answer asks, print.
// Run: node --import tsx docs/examples/minimal-surface.ts "<prompt>" (test/agent/minimal-surface.test.ts).
import { createInterface } from "node:readline/promises";
import { Agent } from "../../src/agent/index.ts";

const agent = await Agent.open({ cwd: process.cwd() });
const terminal = createInterface({ input: process.stdin, output: process.stderr });
// Render from the durable events only: the answer as it streams, each call's decision.
agent.bus.on("session/event", (event) => {
  if (event.type === "assistant/chunk" && event.kind === "text") process.stdout.write(event.delta);
  if (event.type === "tool/call") console.error(`[${event.name}: ${event.decision.outcome}]`);
});
// A tool call waits for approval until someone answers (or the turn ends).
agent.bus.on("agent/ask", async (ask) => {
  const reply = await terminal.question(`${ask.presentation.title}: ${ask.reason}. Allow? [y/N] `);
  const outcome = reply.trim().toLowerCase() === "y" ? "allow" : "deny";
  agent.dispatch({ type: "answer", id: ask.id, decision: { outcome } });
});
const done = await agent.dispatch({ type: "prompt", text: process.argv[2] ?? "Say hello." });
process.stdout.write("\n");
terminal.close();
await agent.close();
process.exitCode = done.reason === "completed" ? 0 : 1;

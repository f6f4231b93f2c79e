// `codewhale exec` cannot ask anyone: it subscribes to the agent's `agent/ask` and answers
// each ask at once with a denial whose reason says exactly how to allow the call next time
// (permissions/ask.ts `execDenialMessage`); the model reads it as the call's result.
// Subscribed by exec-command.ts (and by loop tests that want exec's answers).
import type { Agent } from "../agent/agent.ts";
import { execDenialMessage } from "../permissions/index.ts";

/** Denies every ask of `agent` with exec's advice; returns the unsubscribe. */
export function refuseAsks(agent: Agent): () => void {
  return agent.bus.on("agent/ask", (ask) => {
    const reason = execDenialMessage(ask, ask.reason, agent.permissionContext);
    agent.answer(ask.id, { outcome: "deny", by: "default", reason });
  });
}

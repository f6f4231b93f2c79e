// Steering from the queue: Enter on an empty prompt while a turn runs takes the queued
// messages back and sends each to the running turn as steering (agent.steer: logged at once,
// read by the model at the next step boundary), oldest first. While the turn cannot take
// steering yet (its prompt is still with the UserPromptSubmit hooks), they are queued again,
// in order. Called by app.ts.
import type { Agent } from "../agent/index.ts";

export interface SteerOutcome {
  steered: string[];
  requeued: string[];
}

export function steerQueued(agent: Agent): SteerOutcome {
  const outcome: SteerOutcome = { steered: [], requeued: [] };
  if (!agent.running || agent.queued.length === 0) return outcome;
  for (const text of agent.dispatch({ type: "withdraw" })) {
    if (outcome.requeued.length === 0 && agent.dispatch({ type: "steer", text: text })) {
      outcome.steered.push(text);
    } else {
      outcome.requeued.push(text);
    }
  }
  for (const text of outcome.requeued) {
    agent.dispatch({ type: "prompt", text: text }).catch(() => undefined);
  }
  return outcome;
}

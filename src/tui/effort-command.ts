// `/effort [level]`: the session's reasoning effort from the next request on. With a level it
// is set at once (the agent records it as `session/effort`, which the transcript shows); with
// none a picker offers the levels, the current one first. Called by app.ts.
import type { SelectItem } from "@mariozechner/pi-tui";
import type { Agent } from "../agent/index.ts";
import type { Effort } from "../session/events.ts";
import type { Theme } from "./theme.ts";

/** What the levels do, as the picker describes them. */
const DESCRIPTIONS: Readonly<Record<Effort, string>> = {
  off: "no extended thinking",
  minimal: "the least reasoning (Anthropic: 1,024 thinking tokens)",
  low: "Anthropic: 4,096 thinking tokens",
  medium: "Anthropic: 16,384 thinking tokens",
  high: "Anthropic: 32,768 thinking tokens",
};

interface EffortCommandHost {
  agent: Agent;
  /** The levels, from none to the most (config's `EFFORT_LEVELS`, handed in). */
  levels: readonly Effort[];
  theme: Theme;
  say(line: string): void;
  pick(title: string, items: SelectItem[], picked: (value: string) => void): void;
}

export function runEffortCommand(argument: string, host: EffortCommandHost): void {
  const { agent, levels, theme } = host;
  const now = agent.effort;
  if (argument === "") {
    const items = levels.map((level) => ({
      value: level,
      label: level === now ? `${level} (now)` : level,
      description: DESCRIPTIONS[level],
    }));
    const current = items.findIndex((item) => item.value === now);
    if (current > 0) items.unshift(...items.splice(current, 1));
    host.pick("reasoning effort", items, (value) => setEffort(value, host));
    return;
  }
  if (!levels.some((level) => level === argument.toLowerCase())) {
    host.say(theme.warn(`/effort takes one of ${levels.join(", ")}; now ${now ?? "unset"}`));
    return;
  }
  setEffort(argument.toLowerCase(), host);
}

function setEffort(value: string, host: EffortCommandHost): void {
  const effort = host.levels.find((level) => level === value);
  if (!effort) return;
  if (host.agent.effort === effort) {
    host.say(host.theme.dim(`effort: ${effort} already`));
    return;
  }
  host.agent.dispatch({ type: "set_effort", effort });
}

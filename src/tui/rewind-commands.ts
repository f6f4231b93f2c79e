// The terminal's rewind commands (docs/rewind.md): `/rewind N [code|conversation|both]
// [--force]` (the default scope here is both, as Claude Code's), `/undo` (both, to before the
// last prompt), `/redo` (undoes the last rewind) and `/diff [N]` (the workspace now against
// before prompt N). Each is the agent's rewind command (`by: terminal`); this file parses the
// arguments, lists the prompts for app.ts's picker, and turns outcomes into lines.
import type { SelectItem } from "@mariozechner/pi-tui";
import type { Agent, RewindOutcome, WithdrawnRewind } from "../agent/index.ts";
import { terminalSafe as safe } from "../runner/index.ts";
import type { Theme } from "./theme.ts";

type Scope = "code" | "conversation" | "both";
const SCOPES: readonly Scope[] = ["code", "conversation", "both"];
/** The most lines of a diff the transcript shows. */
const DIFF_LINES = 200;

/** The prompts of the session, newest first, for the /rewind picker (value: its number). */
export function rewindItems(agent: Agent): SelectItem[] {
  const prompts = agent
    .history()
    .filter((event) => event.type === "user/message" && !event.blocked)
    .map((event, index) => ({
      n: index + 1,
      text: event.type === "user/message" ? event.text : "",
    }));
  return prompts.reverse().map(({ n, text }) => ({
    value: String(n),
    label: safe(`${n}  ${text.split("\n")[0] ?? ""}`),
    description: "rewind code and conversation to before it",
  }));
}

/** `/rewind` with an argument, `/undo`, `/redo` and `/diff`: lines for the transcript. */
export async function runRewindCommand(
  name: "rewind" | "undo" | "redo" | "diff",
  argument: string,
  agent: Agent,
  theme: Theme,
): Promise<string> {
  if (name === "diff") return diffLines(agent, argument, theme);
  if (name === "redo")
    return outcomeLines(
      await agent.dispatch({ type: "rewind", scope: "code", redo: true, by: "terminal" }),
      theme,
    );
  const words = argument.split(/\s+/).filter(Boolean);
  const force = words.includes("--force");
  const scope =
    (words.find((word) => SCOPES.includes(word as Scope)) as Scope | undefined) ?? "both";
  const number = words.find((word) => /^\d+$/.test(word));
  const count = rewindItems(agent).length;
  const prompt = name === "undo" ? count : Number(number);
  if (!prompt)
    return theme.warn(
      name === "undo"
        ? "nothing to undo: no prompt yet"
        : "/rewind takes a prompt number (or none, for a list)",
    );
  const outcome = await agent.dispatch({
    type: "rewind",
    scope,
    prompt,
    by: "terminal",
    ...(force ? { force } : {}),
  });
  return outcomeLines(outcome, theme);
}

function outcomeLines(outcome: RewindOutcome | WithdrawnRewind, theme: Theme): string {
  if (outcome.reason === "withdrawn") return theme.warn("rewind withdrawn");
  if (outcome.reason === "refused") {
    const hint =
      outcome.conflicts.length > 0
        ? " (add --force to /rewind to overwrite them; /diff shows them)"
        : "";
    return theme.warn(safe(`${outcome.error}${hint}`));
  }
  const { event, files } = outcome;
  const lines = [
    `rewound (${event.scope})${event.prompt ? ` to before prompt ${event.prompt}` : ""}`,
  ];
  if (event.scope !== "conversation")
    lines.push(files.length === 0 ? "  no file differed" : `  restored ${files.join(", ")}`);
  lines.push("  /redo undoes it");
  return theme.dim(safe(lines.join("\n")));
}

async function diffLines(agent: Agent, argument: string, theme: Theme): Promise<string> {
  const prompt = /^\d+$/.test(argument.trim()) ? Number(argument.trim()) : undefined;
  const diff = await agent.checkpointDiff(prompt).catch((error: unknown) => String(error));
  if (diff === null)
    return theme.dim("no checkpoint yet: codewhale has changed no file in this session");
  if (diff.trim() === "") return theme.dim("no change since then");
  const lines = diff.split("\n");
  const more = lines.length > DIFF_LINES ? [`… ${lines.length - DIFF_LINES} more lines`] : [];
  return safe([...lines.slice(0, DIFF_LINES), ...more].join("\n"));
}

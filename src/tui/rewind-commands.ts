// The terminal's rewind commands (docs/rewind.md): `/rewind N [code|conversation|both]
// [--force]` (the default scope here is both, as Claude Code's), `/undo` (both, to before the
// last prompt), `/redo` (undoes the last rewind) and `/diff [N]` (the workspace now against
// before prompt N). Each is the agent's rewind command (`by: terminal`); this file parses the
// arguments, lists the prompts for app.ts's picker, turns outcomes into lines, and for a rewind
// refused over files changed outside codewhale shows their diffs and hands app.ts the question.
import type { SelectItem } from "@mariozechner/pi-tui";
import type { Agent, AgentCommand, RewindOutcome, WithdrawnRewind } from "../agent/index.ts";
import type { ConflictChange } from "../errors.ts";
import { terminalSafe as safe } from "../runner/index.ts";
import { diffLines as fileDiffLines } from "./diff-lines.ts";
import type { Theme } from "./theme.ts";

type Scope = "code" | "conversation" | "both";
const SCOPES: readonly Scope[] = ["code", "conversation", "both"];
/** The most lines of a diff the transcript shows. */
const DIFF_LINES = 200;
/** The most diff lines shown for one file a rewind would overwrite. */
const CONFLICT_LINES = 40;

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

/**
 * What a rewind command says; for a rewind refused over files changed outside codewhale, also
 * the question to ask and the forced rewind that a yes runs.
 */
interface RewindReply {
  text: string;
  overwrite?: { question: string; force: () => Promise<string> };
}

/** `/rewind` with an argument, `/undo`, `/redo` and `/diff`: lines for the transcript. */
export async function runRewindCommand(
  name: "rewind" | "undo" | "redo" | "diff",
  argument: string,
  agent: Agent,
  theme: Theme,
): Promise<RewindReply> {
  if (name === "diff") return { text: await diffLines(agent, argument, theme) };
  if (name === "redo")
    return rewindWith(agent, { type: "rewind", scope: "code", redo: true, by: "terminal" }, theme);
  const words = argument.split(/\s+/).filter(Boolean);
  const force = words.includes("--force");
  const scope =
    (words.find((word) => SCOPES.includes(word as Scope)) as Scope | undefined) ?? "both";
  const number = words.find((word) => /^\d+$/.test(word));
  const count = rewindItems(agent).length;
  const prompt = name === "undo" ? count : Number(number);
  if (!prompt)
    return {
      text: theme.warn(
        name === "undo"
          ? "nothing to undo: no prompt yet"
          : "/rewind takes a prompt number (or none, for a list)",
      ),
    };
  const command = { type: "rewind" as const, scope, prompt, by: "terminal" };
  return rewindWith(agent, force ? { ...command, force } : command, theme);
}

/**
 * Runs the rewind; when it is refused over files changed outside codewhale, shows each of them
 * against what the rewind would write and offers the same rewind, forced.
 */
async function rewindWith(
  agent: Agent,
  command: Extract<AgentCommand, { type: "rewind" }>,
  theme: Theme,
): Promise<RewindReply> {
  const outcome = await agent.dispatch(command);
  if (outcome.reason !== "refused" || outcome.conflicts.length === 0 || command.force)
    return { text: outcomeLines(outcome, theme) };
  const n = outcome.conflicts.length;
  const files = n === 1 ? "a file" : `${n} files`;
  const lines = [
    theme.warn(
      `${files} changed outside codewhale since the checkpoint; the rewind would overwrite:`,
    ),
  ];
  for (const change of outcome.changes) lines.push(...conflictLines(change, theme));
  const question = `overwrite ${n === 1 ? "it" : `these ${n} files`}?`;
  const force = async () => outcomeLines(await agent.dispatch({ ...command, force: true }), theme);
  return { text: lines.join("\n"), overwrite: { question, force } };
}

/** One conflicting file: its diff from now to what the rewind would write. */
function conflictLines(change: ConflictChange, theme: Theme): string[] {
  const head = theme.bold(safe(`${change.path}`));
  if (change.note) return [`${head} ${theme.dim(safe(`(${change.note})`))}`];
  const fate = change.restored === null ? " (the rewind would remove it)" : "";
  const diff = { path: change.path, oldText: change.now, newText: change.restored ?? "" };
  return [`${head}${theme.dim(fate)}`, ...fileDiffLines(diff, theme, CONFLICT_LINES)];
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
  if (event.forced) lines.push(`  overwrote ${event.forced.join(", ")}`);
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

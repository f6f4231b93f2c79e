// The bridge's `/rewind` (docs/rewind.md, docs/acp.md): `/rewind N [code|conversation|both]
// [--force]` or `/rewind redo`, the agent's rewind command with `by: acp`, code by default as
// on the command line. A file changed outside codewhale is not overwritten: the refusal names
// it. The answer names every file written back, so the editor knows what changed on disk.
// acp-session.ts runs it.
import type { AgentCommand, RewindOutcome, WithdrawnRewind } from "../agent/index.ts";
import { terminalSafeLine } from "../runner/index.ts";

type Scope = "code" | "conversation" | "both";
const SCOPES: readonly string[] = ["code", "conversation", "both"];

/** The rewind command an argument asks for, or the reason it asks for none. */
export function rewindCommandOf(
  argument: string,
): Extract<AgentCommand, { type: "rewind" }> | { error: string } {
  const words = argument.split(/\s+/).filter(Boolean);
  const scope = (words.find((word) => SCOPES.includes(word)) as Scope | undefined) ?? "code";
  const force = words.includes("--force");
  if (words.includes("redo")) return { type: "rewind", scope, redo: true, by: "acp" };
  const number = words.find((word) => /^\d+$/.test(word));
  if (number === undefined) return { error: "/rewind needs a prompt number, or redo" };
  return { type: "rewind", scope, prompt: Number(number), by: "acp", ...(force ? { force } : {}) };
}

/** What the bridge says of a rewind: what was restored, or why not. */
export function rewindMessage(outcome: RewindOutcome | WithdrawnRewind): string {
  if (outcome.reason === "withdrawn") return "/rewind: withdrawn";
  if (outcome.reason === "refused") return `/rewind: ${terminalSafeLine(outcome.error)}`;
  const { event, files } = outcome;
  const where = event.prompt === undefined ? "" : ` to before prompt ${event.prompt}`;
  const what =
    event.redo_of === undefined ? `Rewound (${event.scope})${where}` : "Undid the last rewind";
  if (event.scope === "conversation") return `${what}.`;
  const restored =
    files.length === 0 ? "no file differed" : `restored ${files.map(terminalSafeLine).join(", ")}`;
  return `${what}: ${restored}.`;
}

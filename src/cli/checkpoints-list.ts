// What `codewhale checkpoints <session>` prints: one line per prompt (its number, the files
// its turn changed, its first line), then one line per rewind; or all of it as JSON. Folded
// from the log alone (checkpoints/timeline.ts). Called by rewind-command.ts.
import { filesByPrompt, timelineOf } from "../checkpoints/index.ts";
import { rewindTarget } from "../present/checkpoint-line.ts";
import { plural } from "../present/format.ts";
import { jsonSafe, terminalSafe } from "../runner/index.ts";
import type { SessionEvent } from "../session/events.ts";

const TITLE_WIDTH = 50;

export function checkpointLines(events: readonly SessionEvent[], json: boolean): string[] {
  const timeline = timelineOf(events);
  const files = filesByPrompt(timeline);
  if (json) {
    const prompts = timeline.prompts.map((prompt) => ({
      ...prompt,
      files: files.get(prompt.n) ?? [],
    }));
    const checkpoints = timeline.states.map(({ checkpoint, seq, tree, event }) => ({
      checkpoint,
      seq,
      tree,
      type: event.type,
      files: event.files,
    }));
    return [jsonSafe(JSON.stringify({ prompts, checkpoints, rewinds: timeline.rewinds }))];
  }
  const lines = timeline.prompts.map((prompt) => {
    const changed = files.get(prompt.n) ?? [];
    const title = firstLine(prompt.text);
    const what =
      changed.length === 0
        ? "no file changed"
        : `${plural(changed.length, "file")}: ${changed.join(", ")}`;
    return terminalSafe(`${String(prompt.n).padStart(3)}  ${title.padEnd(TITLE_WIDTH)}  ${what}`);
  });
  if (lines.length === 0) lines.push("no prompt in this session");
  for (const event of timeline.rewinds) {
    const undo = event.redo_of !== undefined ? `, undoing the rewind at seq ${event.redo_of}` : "";
    const target = rewindTarget(event);
    const restored =
      event.scope === "conversation" ? "" : `, ${plural(event.files.length, "file")}`;
    lines.push(
      terminalSafe(
        `rewind at seq ${event.seq} by ${event.by}: ${event.scope}${target}${restored}${undo}`,
      ),
    );
  }
  return lines;
}

function firstLine(text: string): string {
  const line = text.split("\n")[0] ?? "";
  return line.length > TITLE_WIDTH ? `${line.slice(0, TITLE_WIDTH - 1)}…` : line;
}

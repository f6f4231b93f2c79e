// One line for a workspace checkpoint or a rewind (docs/rewind.md), as `sessions show`, the
// exports and the terminal say it: which files changed and by what, or what a rewind restored,
// from where, by whom, and which part of the conversation it rewound. Pure; read by
// export-view.ts and cli/session-render.ts.
import type { EventOf } from "../session/events.ts";
import { plural } from "./format.ts";

const SHOWN_FILES = 5;

export function checkpointLine(event: EventOf<"checkpoint/taken">): string {
  const skipped = event.skipped?.length
    ? `; not stored: ${event.skipped.map((file) => `${file.path} (${file.reason.replaceAll("_", " ")})`).join(", ")}`
    : "";
  if (event.base) {
    return `checkpoint ${event.checkpoint}: the workspace before the first change (${plural(event.file_count, "file")})${skipped}`;
  }
  const who =
    event.at === "after"
      ? `changed by ${event.call_id ?? "a call"}`
      : event.at === "rewind"
        ? "the state a rewind replaced; changed outside codewhale"
        : "changed outside codewhale";
  return `checkpoint ${event.checkpoint}: ${fileList(event.files)} ${who}${skipped}`;
}

/** ` to before prompt N`, ` to checkpoint N`, or nothing: where a rewind went. */
export function rewindTarget(event: EventOf<"checkpoint/rewind">): string {
  if (event.prompt !== undefined) return ` to before prompt ${event.prompt}`;
  return event.to !== undefined ? ` to checkpoint ${event.to}` : "";
}

export function rewindLine(event: EventOf<"checkpoint/rewind">): string {
  const target = rewindTarget(event);
  const what =
    event.redo_of !== undefined
      ? `undoes the rewind at seq ${event.redo_of}`
      : `${event.scope}${target}`;
  const parts = [`rewind by ${event.by}: ${what}`];
  if (event.scope !== "conversation") {
    parts.push(event.files.length === 0 ? "no file differed" : `restored ${fileList(event.files)}`);
  }
  if (event.history_until !== undefined) {
    parts.push(
      `the conversation from seq ${event.history_until} up to here is rewound: later requests do not carry it`,
    );
  }
  if (event.forced?.length)
    parts.push(`overwrote changes made outside codewhale to ${event.forced.join(", ")}`);
  if (event.redo_point !== undefined) parts.push(`undo: checkpoint ${event.redo_point}`);
  if (event.recovered) parts.push("finished after an interruption");
  return parts.join("; ");
}

function fileList(files: EventOf<"checkpoint/taken">["files"]): string {
  const names = files
    .slice(0, SHOWN_FILES)
    .map((file) => (file.hash === null ? `${file.path} (removed)` : file.path));
  const more = files.length > SHOWN_FILES ? ` and ${files.length - SHOWN_FILES} more` : "";
  return `${plural(files.length, "file")} (${names.join(", ")}${more})`;
}

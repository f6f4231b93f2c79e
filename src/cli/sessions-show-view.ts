// `sessions show --view response-only|thinking-only`: the session as that view, the same fold
// as `codewhale export` (present/export-view.ts), rendered as Markdown text to the terminal,
// secrets redacted and control characters escaped. Called by sessions-command.ts.
import { renderView } from "../present/export-render.ts";
import type { ExportView } from "../present/export-view.ts";
import type { SessionEvent } from "../session/events.ts";
import { HashingSink, writeStdout } from "./export-output.ts";
import { cleanFor } from "./export-source.ts";

export async function showView(
  events: SessionEvent[],
  view: ExportView,
  throughSeq: number,
): Promise<void> {
  const sink = new HashingSink(writeStdout);
  const options = {
    view,
    format: "md" as const,
    throughSeq,
    redacted: true,
    clean: cleanFor(true),
  };
  await renderView(events, options, sink.write);
  sink.digest();
}

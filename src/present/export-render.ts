// Renders one view of a session's events in one format, streamed to `write`: the fold of
// export-view.ts feeds the format's renderer item by item, so memory stays flat whatever the
// log's size. A pure function of the events and options (no clock, locale or environment).
// Called by cli/export-command.ts (export and `export verify`) and `sessions show --view`.
import type { SessionEvent } from "../session/events.ts";
import { createHtmlRenderer } from "./export-html.ts";
import { createJsonlRenderer } from "./export-jsonl.ts";
import { createMarkdownRenderer } from "./export-md.ts";
import type { ExportFormat, ViewRenderer } from "./export-render-types.ts";
import { type ExportView, type Redact, ViewFold } from "./export-view.ts";

export interface RenderOptions {
  view: ExportView;
  format: ExportFormat;
  /** The last seq rendered; recorded in the file's own header. */
  throughSeq: number;
  /** Whether `clean` redacts secrets (recorded in the header) besides escaping controls. */
  redacted: boolean;
  /** Applied to every string from the log before it is rendered. */
  clean: Redact;
}

export async function createRenderer(
  format: ExportFormat,
  write: (text: string) => void,
): Promise<ViewRenderer> {
  if (format === "html") return createHtmlRenderer(write);
  if (format === "md") return createMarkdownRenderer(write);
  return createJsonlRenderer(write);
}

/** A view being rendered: events go in one at a time (session/start first), then `end`. */
export interface ViewRender {
  push(event: SessionEvent): void;
  end(): void;
}

export async function createViewRender(
  options: RenderOptions,
  write: (text: string) => void,
): Promise<ViewRender> {
  const renderer = await createRenderer(options.format, write);
  const fold = new ViewFold(options.view, options.clean);
  let begun = false;
  return {
    push(event) {
      const items = fold.push(event);
      if (!begun && fold.head) {
        begun = true;
        const { view, format, throughSeq, redacted } = options;
        renderer.begin({ head: fold.head, view, format, throughSeq, redacted });
      }
      for (const item of items) renderer.item(item);
    },
    end() {
      for (const item of fold.end()) renderer.item(item);
      renderer.end();
    },
  };
}

/** Renders the events (session/start first) in the view and format; the receipt is not written. */
export async function renderView(
  events: Iterable<SessionEvent>,
  options: RenderOptions,
  write: (text: string) => void,
): Promise<void> {
  const render = await createViewRender(options, write);
  for (const event of events) render.push(event);
  render.end();
}

// Renders one view of a session's events in one format, streamed to `write`: the fold of
// export-view.ts feeds the format's renderer item by item, so memory stays flat whatever the
// log's size. A pure function of the events and options (no clock, locale or environment;
// the HTML export's images come from `imageData`, which the caller reads from the image store).
// Called by cli/export-command.ts (export and `export verify`) and `sessions show --view`.
import type { EventOf, SessionEvent } from "../session/events.ts";
import { foldFigures } from "../session/figures.ts";
import { createHtmlRenderer, type ImageData } from "./export-html.ts";
import { createJsonlRenderer } from "./export-jsonl.ts";
import { createMarkdownRenderer } from "./export-md.ts";
import type { ExportFormat, ViewRenderer } from "./export-render-types.ts";
import { type ExportView, type Redact, ViewFold, type ViewItem } from "./export-view.ts";

export interface RenderOptions {
  view: ExportView;
  format: ExportFormat;
  /** The last seq rendered; recorded in the file's own header. */
  throughSeq: number;
  /** Whether `clean` redacts secrets (recorded in the header) besides escaping controls. */
  redacted: boolean;
  /** Applied to every string from the log before it is rendered. */
  clean: Redact;
  /** Reads the subagent sessions the log's `task` results name; none: they are not rendered. */
  children?: ChildLogs;
  /** The stored images' bytes, for the HTML export to embed (absent: each is named only). */
  imageData?: ImageData;
}

/** A subagent's log as read for an export, through the seq the parent's link names. */
interface ChildLog {
  events: SessionEvent[];
  lastSeq: number;
  chainHead: string;
  bytes: number;
  sha256: string;
}

/** Reads a child session's log through `throughSeq`; the reason when it cannot. */
export type ChildLogs = (sessionId: string, throughSeq: number) => ChildLog | { error: string };

export async function createRenderer(
  format: ExportFormat,
  write: (text: string) => void,
  imageData?: ImageData,
): Promise<ViewRenderer> {
  if (format === "html") return createHtmlRenderer(write, imageData);
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
  const renderer = await createRenderer(options.format, write, options.imageData);
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
      if (event.type === "tool/result" && event.child && options.children) {
        renderer.item(subagentItem(event, event.child, options, options.children));
      }
    },
    end() {
      for (const item of fold.end()) renderer.item(item);
      renderer.end();
    },
  };
}

/** The child's own view, after the parent's result that names it (docs/export.md#subagents). */
function subagentItem(
  event: EventOf<"tool/result">,
  link: { session_id: string; seq: number; h: string },
  options: RenderOptions,
  children: ChildLogs,
): ViewItem {
  const { clean } = options;
  const base = {
    kind: "subagent" as const,
    seq: event.seq,
    callId: clean(event.call_id),
    sessionId: clean(link.session_id),
    link: { seq: link.seq, h: link.h },
  };
  const read = children(link.session_id, link.seq);
  if ("error" in read) {
    return {
      ...base,
      log: null,
      linkHolds: false,
      error: clean(read.error),
      cost: null,
      items: [],
    };
  }
  const fold = new ViewFold(options.view, clean);
  const items = read.events.flatMap((child) => fold.push(child));
  items.push(...fold.end());
  const { events: _events, ...log } = read;
  const linkHolds = read.lastSeq === link.seq && read.chainHead === link.h;
  const cost = foldFigures(read.events).cost;
  return { ...base, log, linkHolds, error: null, cost, items };
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

// The shapes every export renderer shares: what the derived file says about itself (its
// meta) and the streaming renderer interface (begin, one item at a time, end). Implemented by
// export-md.ts, export-html.ts and export-jsonl.ts; driven by export-render.ts.
import type { ExportView, SessionHead, ViewItem } from "./export-view.ts";

export const EXPORT_FORMATS = ["jsonl", "md", "html"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export function isExportFormat(value: string): value is ExportFormat {
  return (EXPORT_FORMATS as readonly string[]).includes(value);
}

export interface ExportMeta {
  head: SessionHead;
  view: ExportView;
  format: ExportFormat;
  /** The last seq the view covers. */
  throughSeq: number;
  redacted: boolean;
}

export interface ViewRenderer {
  begin(meta: ExportMeta): void;
  item(item: ViewItem): void;
  end(): void;
}

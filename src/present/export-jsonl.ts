// The JSON Lines rendering of a derived view (export-view.ts): a first `export/header` line
// saying it is a derived view and of what, then one line per view item, streamed. The receipt
// line (`export/receipt`, export-receipt.ts) follows the last item. The canonical view as
// jsonl is not rendered here: it is a byte copy of the log (cli/export-command.ts).
import type { ViewRenderer } from "./export-render-types.ts";

export const JSONL_RECEIPT_TYPE = "export/receipt";

export function createJsonlRenderer(write: (text: string) => void): ViewRenderer {
  return {
    begin(meta) {
      const header = {
        type: "export/header",
        derived_view: true,
        note: "a derived view of a codewhale session log; the log is the record",
        session_id: meta.head.sessionId,
        view: meta.view,
        through_seq: meta.throughSeq,
        redacted: meta.redacted,
        provider: meta.head.provider,
        model: meta.head.model,
        cwd: meta.head.cwd,
        started: meta.head.started,
      };
      write(`${JSON.stringify(header)}\n`);
    },
    item(item) {
      write(`${JSON.stringify({ type: `view/${item.kind}`, ...item, kind: undefined })}\n`);
    },
    end() {},
  };
}

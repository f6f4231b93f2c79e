// The model's `session_search` tool: excerpts of the user's past sessions matching a query,
// each with its session id and seq, from the search index (brought up to date first). Scope
// `project` (the default) finds only sessions run in this project's directory or below, `all`
// every session of this home; the session asking is left out. The output policy applies
// (define-tool.ts). Added to a session's sources by agent/compose-session.ts unless `off`.

import {
  SESSION_SEARCH_TOOL,
  sessionSearchPresenter,
  sessionSearchSchema,
} from "../tools/builtin/session-search.presenter.ts";
import { defineTool } from "../tools/define-tool.ts";
import type { ToolSource } from "../tools/source.ts";
import { zodInput } from "../tools/tool-input.ts";
import { openSearchIndex, type SearchHit } from "./index.ts";

interface SessionSearchOptions {
  home: string;
  sessionsDir: string;
  scope: "project" | "all";
  /** The project directory: with scope `project`, only its sessions are searched. */
  project: string;
}

const DESCRIPTION =
  "Search the user's past codewhale sessions (prompts, answers, tool calls and results) " +
  'for words or a "quoted phrase". Returns matching excerpts with session ids and dates.';

export function sessionSearchSource(options: SessionSearchOptions): ToolSource {
  return {
    name: "session_search",
    async open(context) {
      const tool = defineTool(
        {
          name: SESSION_SEARCH_TOOL,
          description: DESCRIPTION,
          input: zodInput(sessionSearchSchema),
          readOnly: true,
          execute: async (args) => {
            const index = await openSearchIndex(options);
            try {
              index.sync();
              const hits = index.search(args.query, {
                limit: args.limit ?? 8,
                exceptSession: context.sessionId,
                ...(options.scope === "project" ? { dir: options.project } : {}),
              });
              return { content: resultText(args.query, hits) };
            } finally {
              index.close();
            }
          },
        },
        sessionSearchPresenter,
      );
      return { tools: () => [tool], notices: [], dispose: async () => {} };
    },
  };
}

function resultText(query: string, hits: SearchHit[]): string {
  if (hits.length === 0) return `No past session matches ${query}.`;
  const lines = hits.map((hit) => {
    const what = hit.tool ? `${hit.kind} ${hit.tool}` : hit.kind;
    const title = hit.title ? ` "${hit.title}"` : "";
    return `session ${hit.sessionId} seq ${hit.seq} (${hit.ts.slice(0, 10)}, ${what}${title}):\n  ${hit.snippet}`;
  });
  return `${hits.length} matches:\n${lines.join("\n")}\n`;
}

// The provider's web searches in the exports: a recorded Anthropic stream (web_search_20250305
// with citations) run through the agent at the loopback mock, its log rendered as Markdown and
// HTML: each search with its results as links, then the cited sources numbered, in the
// canonical and response-only views; a source whose URL is not http(s) is text, never a link.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { renderView } from "../../src/present/export-render.ts";
import type { ExportFormat } from "../../src/present/export-render-types.ts";
import type { ExportView } from "../../src/present/export-view.ts";
import type { SessionEvent } from "../../src/session/events.ts";
import { openMockAgent } from "../support/mock-agent.ts";
import { replayOf, useMockProvider } from "../support/mock-provider/index.ts";

const mock = useMockProvider();

async function render(events: SessionEvent[], format: ExportFormat, view: ExportView) {
  let out = "";
  const options = {
    view,
    format,
    throughSeq: events.length,
    redacted: false,
    clean: (t: string) => t,
  };
  await renderView(events, options, (text) => {
    out += text;
  });
  return out;
}

async function searchedSession(): Promise<SessionEvent[]> {
  const { agent, events } = await openMockAgent(mock, "anthropic");
  mock.enqueue(replayOf("anthropic/vercel-web-search-citations"));
  await agent.submit("tech news today?");
  await agent.close();
  return events;
}

describe("web searches in the exports", () => {
  it("Markdown and HTML list each search's results and the cited sources, in both answer views", async () => {
    const events = await searchedSession();
    for (const view of ["canonical", "response-only"] as const) {
      const md = await render(events, "md", view);
      assert.match(
        md,
        /\*web\\_search "tech news today September 26 2025" · 10 results\*\n\n- \[[^\]]+\]\(https:\/\/[^)]+\)/,
      );
      assert.match(md, /\*\*Sources cited\*\*\n\n1\. \[[^\]]+\]\(https:\/\/[^)]+\)/);
      const html = await render(events, "html", view);
      assert.match(
        html,
        /<div class="web-search" data-seq="\d+"><div class="who">web_search &quot;tech news today September 26 2025&quot; · 10 results<\/div><ul><li><a href="https:\/\//,
      );
      assert.match(html, /<div class="who">Sources cited<\/div><ol><li><a href="https:/);
    }
    const thinking = await render(events, "md", "thinking-only");
    assert.doesNotMatch(thinking, /Sources cited/);
  });

  it("keeps a source that is not http(s) as text", async () => {
    const events = await searchedSession();
    const hostile = events.map(
      (event): SessionEvent =>
        event.type === "assistant/message"
          ? {
              ...event,
              content: [
                {
                  type: "server_tool_use",
                  id: "srvtoolu_x",
                  name: "web_search",
                  input: { query: "q" },
                },
                {
                  type: "web_search_tool_result",
                  tool_use_id: "srvtoolu_x",
                  content: [
                    { type: "web_search_result", title: "bad", url: "javascript:alert(1)" },
                  ],
                },
              ],
            }
          : event,
    );
    const html = await render(hostile, "html", "canonical");
    assert.match(html, /<li>bad<\/li>/);
    assert.doesNotMatch(html, /href="javascript/);
    const md = await render(hostile, "md", "canonical");
    assert.match(md, /- bad — javascript:alert\(1\)/);
  });
});

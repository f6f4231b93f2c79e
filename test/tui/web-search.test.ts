// The provider's web search in the in-process terminal: a recorded Anthropic stream
// (web_search_20250305 with citations) replayed by the loopback mock shows each search with its
// query, count and first results, then the sources the answer cites.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { replayOf } from "../support/mock-provider/index.ts";
import { say, startVirtual } from "../support/virtual-chat.ts";

describe("a web search in the terminal", () => {
  it("shows the search with its first results and the cited sources", async (t) => {
    const { screen, mock } = await startVirtual(t, [], { rows: 60 });
    mock.enqueue(replayOf("anthropic/vercel-web-search-citations"));
    say(screen, "tech news today?");
    const shown = await screen.waitFor(/Sources cited:\s*\n\s+\[1\] /);
    assert.match(shown, /⌕ web_search "tech news today September 26 2025" · 10 results/);
    assert.match(shown, /… 5 more/);
    assert.match(shown, /\[1\] The all-new Apple Ginza opens this Friday/);
  });
});

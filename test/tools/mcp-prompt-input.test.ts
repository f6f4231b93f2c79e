// How the user's text names an MCP prompt's arguments and a server's resources: positional in
// the declared order (quotes keep spaces, the last takes the rest), a missing required one is
// one line with the usage, and `@server:uri` only for a connected server.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { McpPromptInfo } from "../../src/tools/mcp-catalog.ts";
import { promptArguments, resourceMentions } from "../../src/tools/mcp-prompt-input.ts";

const search: McpPromptInfo = {
  server: "docs",
  name: "search",
  command: "/mcp__docs__search",
  description: "",
  arguments: [
    { name: "query", required: true },
    { name: "area", required: false },
    { name: "note", required: false },
  ],
};

describe("MCP prompt arguments and resource mentions", () => {
  it("reads arguments positionally, in declared order", () => {
    assert.deepEqual(promptArguments(search, '"two words" api and the rest'), {
      ok: true,
      args: { query: "two words", area: "api", note: "and the rest" },
    });
    assert.deepEqual(promptArguments(search, "x"), { ok: true, args: { query: "x" } });
    assert.deepEqual(promptArguments(search, ""), {
      ok: false,
      message: "/mcp__docs__search needs query: /mcp__docs__search <query> [area] [note]",
    });
    const none = { ...search, arguments: [] };
    assert.deepEqual(promptArguments(none, "extra"), {
      ok: false,
      message: "/mcp__docs__search takes no arguments",
    });
  });

  it("finds @server:uri of connected servers only, each once", () => {
    const text = "see @docs:file:///a.md, @docs:file:///a.md and @other:x or mail@docs:y @src/a.ts";
    assert.deepEqual(resourceMentions(text, ["docs"]), [
      { server: "docs", uri: "file:///a.md", mention: "@docs:file:///a.md" },
    ]);
  });
});

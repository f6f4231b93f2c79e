// A hostile MCP server's structured content: nested thousands of levels deep it would overflow
// the stack when serialised (and its indented JSON grows with the square of the depth), so it
// becomes one line the model can read; ordinary nesting is shown as indented JSON.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { resultText } from "../../../src/tools/mcp/result-text.ts";

function nested(depth: number): Record<string, unknown> {
  let value: Record<string, unknown> = { leaf: true };
  for (let i = 1; i < depth; i++) value = { next: value };
  return value;
}

describe("MCP structured content", () => {
  it("nested past the log's limit is named, not serialised; within it, shown", () => {
    const deep = resultText({ content: [], structuredContent: nested(10_000) });
    assert.equal(deep.content, "structured content: not shown (nested deeper than 256 levels)");
    assert.equal(deep.isError, undefined, "the call itself succeeded");
    const ok = resultText({ content: [], structuredContent: nested(200) });
    assert.match(ok.content, /^structured content:\n\{\n {2}"next": \{/);
    assert.ok(ok.content.includes('"leaf": true'));
  });
});

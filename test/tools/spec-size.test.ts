// The request budget: the specs of all built-in tools (name, description, JSON schema as the
// toolbox sends them) must stay small, since they go with every request. Prints the sizes.
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { createBuiltinTools } from "../../src/tools/builtin/index.ts";
import { createCodeGraphTool } from "../../src/tools/external/index.ts";
import { staticToolSource } from "../../src/tools/source.ts";
import { Toolbox } from "../../src/tools/toolbox.ts";
import { createWorkspace } from "./support/workspace.ts";

const ws = createWorkspace("cw-spec-");
after(() => ws.cleanup());

/** Bytes of the specs as a provider sends them: { name, description, input_schema }. */
function specBytes(toolbox: Toolbox): Record<string, number> {
  const sizes: Record<string, number> = {};
  for (const spec of toolbox.specs()) {
    const wire = { name: spec.name, description: spec.description, input_schema: spec.inputSchema };
    sizes[spec.name] = Buffer.byteLength(JSON.stringify(wire));
  }
  return sizes;
}

describe("tool spec size", () => {
  it("keeps all built-in tools, the code graph included, within 4.5 KB", async (t) => {
    const context = ws.context();
    const tools = [...createBuiltinTools(context), createCodeGraphTool(context, { gcf: false })];
    const toolbox = await Toolbox.open({
      sources: [staticToolSource("builtin", tools)],
      context: { sessionId: "s", workspace: context, signal: new AbortController().signal },
      output: { policy: context.policy, spill: context.spill },
      onNotice: () => {},
    });
    const sizes = specBytes(toolbox);
    const total = Object.values(sizes).reduce((sum, size) => sum + size, 0);
    t.diagnostic(`tool specs: ${JSON.stringify(sizes)}; total ${total} bytes`);
    assert.ok(total <= 4500, `all tool specs take ${total} bytes`);
  });

  it("keeps every description short", () => {
    for (const tool of createBuiltinTools(ws.context())) {
      assert.ok(tool.description.length <= 300, `${tool.name}: ${tool.description.length} chars`);
    }
  });
});

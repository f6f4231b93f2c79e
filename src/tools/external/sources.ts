// The `[[tools.external]]` entries and the cgc code graph as ToolSources (tools/source.ts).
// External entries come from trusted config only (the agent passes them); a bad entry is a
// ConfigError that stops the session from opening. The code graph probes cgc on open: absent
// or failing, it offers no tool and one notice.
import type { ExternalToolConfig } from "../../config/index.ts";
import type { ToolNotice, ToolSource } from "../source.ts";
import { type CodeGraphOptions, setUpCodeGraph } from "./code-graph.ts";
import { createExternalTools } from "./external-tool.ts";

export function externalToolSource(entries: readonly ExternalToolConfig[]): ToolSource {
  return {
    name: "tools.external",
    async open(context) {
      const tools = createExternalTools(entries, context.workspace);
      return { tools: () => tools, notices: [], dispose: async () => {} };
    },
  };
}

export function codeGraphSource(options: CodeGraphOptions): ToolSource {
  return {
    name: "code-graph",
    async open(context) {
      const setup = await setUpCodeGraph(context.workspace, options);
      const notices: ToolNotice[] = setup.notice
        ? [{ message: setup.notice, level: setup.absent ? "status" : "tools" }]
        : [];
      return { tools: () => setup.tools, notices, dispose: async () => {} };
    },
  };
}

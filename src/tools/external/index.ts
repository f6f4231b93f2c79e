// External tools: command tools declared in config and the built-in `cgc` code-graph
// integration. The agent calls createExternalTools and setUpCodeGraph at session start.

export type { CgcProbe, CodeGraphOptions, CodeGraphSetup } from "./code-graph.ts";
export {
  CODE_GRAPH_TOOL,
  cgcEnv,
  createCodeGraphTool,
  gcfEnabled,
  probeCgc,
  setUpCodeGraph,
} from "./code-graph.ts";
export type { ExternalToolOptions } from "./external-tool.ts";
export { createExternalTools } from "./external-tool.ts";
export { codeGraphSource, externalToolSource } from "./sources.ts";

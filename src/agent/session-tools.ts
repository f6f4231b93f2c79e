// The tools a real session offers: the built-ins, the trusted `[[tools.external]]` entries and
// the cgc code graph when it is installed, over one tool context with the session's spill
// scope. Commands the model runs never see the provider credentials codewhale itself uses.
import type { Config, Env } from "../config/index.ts";
import { withoutProviderKeys } from "../hooks/env.ts";
import { createSpillScope, type SpillScope, sweepStaleSpillDirs } from "../runner/index.ts";
import type { ReadGate } from "../tools/builtin/index.ts";
import { createBuiltinTools, createToolContext } from "../tools/builtin/index.ts";
import { createExternalTools, gcfEnabled, setUpCodeGraph } from "../tools/external/index.ts";
import { ToolRegistry } from "../tools/registry.ts";

export interface SessionTools {
  registry: ToolRegistry;
  /**
   * One line for the user when an optional integration failed (cgc installed but not
   * answering), else null. An integration that is simply not installed stays quiet here;
   * `codewhale doctor` reports it.
   */
  notice: string | null;
  /** The session's spill directory (read, grep and ls may read it). */
  spillDir: string;
  /** `status` when cgc is simply not installed, `tools` when it is there and failing. */
  noticeSource: "status" | "tools";
  /** Stops background processes and removes the session's spill files. */
  dispose(): Promise<void>;
}

export interface SessionToolsOptions {
  sessionId: string;
  cwd: string;
  config: Config;
  env: Env;
  /** `[[tools.external]]` entries from trusted config only. */
  externalTools: Config["tools"]["external"];
  /** What the permission rules keep the reading tools away from. */
  readGate?: ReadGate;
}

export async function createSessionTools(options: SessionToolsOptions): Promise<SessionTools> {
  sweepStaleSpillDirs();
  const spill: SpillScope = createSpillScope(options.sessionId);
  const context = createToolContext({
    cwd: options.cwd,
    output: options.config.output,
    spill,
    env: withoutProviderKeys(options.env, options.config.providers),
    ...(options.readGate ? { readGate: options.readGate } : {}),
  });
  const builtins = createBuiltinTools(context);
  const external = createExternalTools(options.externalTools, context, {
    reservedNames: builtins.map((tool) => tool.name),
  });
  const codeGraph = await setUpCodeGraph(context, { gcf: gcfEnabled(options.config.output) });
  return {
    registry: new ToolRegistry([...builtins, ...external, ...codeGraph.tools]),
    spillDir: spill.dir,
    notice: codeGraph.notice,
    noticeSource: codeGraph.absent ? "status" : "tools",
    async dispose() {
      await context.background.dispose();
      spill.dispose();
    },
  };
}

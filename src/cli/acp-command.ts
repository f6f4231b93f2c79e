// `codewhale acp`: runs codewhale as an Agent Client Protocol agent on stdio, for editors
// (Zed, JetBrains, any ACP client; docs/acp.md). The bridge itself (src/acp/) and the ACP SDK
// load with a dynamic import only when this command runs, so no other command pays for them.
// Registered by cli/main.ts; provider keys leave the process as in exec (credential-scrub.ts).
import type { Command } from "commander";
import { expandModelAlias } from "../config/index.ts";
import { UsageError } from "../errors.ts";
import { terminalSafe } from "../runner/index.ts";
import type { ToolSource } from "../tools/source.ts";
import { takeCredentials } from "./credential-scrub.ts";
import { execReceipts } from "./receipts.ts";

interface AcpCommandOptions {
  model?: string;
  sessionDir?: string;
}

export interface AcpCommandDeps {
  /** Tool sources every session offers after its own (tests register their tools here). */
  tools?: () => readonly ToolSource[];
}

export function registerAcpCommand(program: Command, deps: AcpCommandDeps = {}): void {
  program
    .command("acp")
    .description("serve the Agent Client Protocol on stdio, for editors such as Zed")
    .option("-m, --model <provider/model>", "model of new sessions (config `model`)")
    .option("--session-dir <dir>", "where session logs live (default $CODEWHALE_HOME/sessions)")
    .action(async (options: AcpCommandOptions) => {
      if (options.sessionDir !== undefined && options.sessionDir.trim() === "") {
        throw new UsageError("--session-dir needs a directory");
      }
      // The keys as codewhale started: each session takes its providers' variables out of
      // process.env when it opens, so no tool or hook it spawns inherits them.
      const env = { ...process.env };
      const { serveAcp } = await import("../acp/serve.ts");
      await serveAcp({
        env,
        ...(options.model ? { model: expandModelAlias(options.model) } : {}),
        ...(options.sessionDir ? { sessionDir: options.sessionDir } : {}),
        ...(deps.tools ? { tools: deps.tools } : {}),
        hideCredentials: (names) => {
          takeCredentials(names);
        },
        receipts: () => execReceipts(env),
        diagnostic: (line) => process.stderr.write(`codewhale: ${terminalSafe(line)}\n`),
      });
    });
}

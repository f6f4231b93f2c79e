// `codewhale acp` with one test tool added to every session's own: `progress`, which reports
// each of its `steps` through ToolContext.progress (a policed output tail, as a streaming
// command reports it), waiting `ms` between them, then answers "done". For child-process tests
// of how the bridge shows a running call. Run by acp-client.ts (`spawnAcp(…, { testTools })`).
import { setTimeout as delay } from "node:timers/promises";
import { Command, CommanderError } from "commander";
import { z } from "zod";
import { registerAcpCommand } from "../../src/cli/acp-command.ts";
import { reportError } from "../../src/cli/fail.ts";
import { ExitCode } from "../../src/errors.ts";
import { defineTool } from "../../src/tools/define-tool.ts";
import { staticToolSource } from "../../src/tools/source.ts";
import { zodInput } from "../../src/tools/tool-input.ts";

const progressTool = defineTool({
  name: "progress",
  description: "Reports each step as progress, then answers done.",
  input: zodInput(z.object({ steps: z.array(z.string()), ms: z.number().int().nonnegative() })),
  kind: "other",
  readOnly: true,
  execute: async (args, ctx) => {
    for (const step of args.steps) {
      ctx.progress?.({ tail: step });
      await delay(args.ms);
    }
    return { content: "done" };
  },
});

const program = new Command("codewhale").exitOverride();
registerAcpCommand(program, { tools: () => [staticToolSource("test", [progressTool])] });
try {
  await program.parseAsync(process.argv.slice(2), { from: "user" });
} catch (error) {
  process.exitCode = error instanceof CommanderError ? ExitCode.usage : reportError(error);
}

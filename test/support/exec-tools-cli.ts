// `codewhale exec` with the test tools registered (echo, sleep, and the recording bash and
// write of test-tools.ts, which log each call to $CODEWHALE_TEST_TOOL_LOG), for child-process
// tests of what exec does with tool calls. Run by exec-harness.ts with `node --import tsx`.
import { Command, CommanderError } from "commander";
import { registerExecCommand } from "../../src/cli/exec-command.ts";
import { reportError } from "../../src/cli/fail.ts";
import { ExitCode } from "../../src/errors.ts";
import { staticToolSource } from "../../src/tools/source.ts";
import { echoTool, recordingBashTool, recordingWriteTool, sleepTool } from "./test-tools.ts";

const log = process.env.CODEWHALE_TEST_TOOL_LOG;
const program = new Command("codewhale").exitOverride();
registerExecCommand(program, {
  tools: () => [
    staticToolSource("test", [
      echoTool,
      sleepTool,
      recordingBashTool([], log),
      recordingWriteTool([], log),
    ]),
  ],
});
try {
  await program.parseAsync(process.argv.slice(2), { from: "user" });
} catch (error) {
  process.exitCode = error instanceof CommanderError ? ExitCode.usage : reportError(error);
}

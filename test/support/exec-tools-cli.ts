// `codewhale exec` with the test tools registered (echo, sleep, and the recording bash and
// write of test-tools.ts, which log each call to $CODEWHALE_TEST_TOOL_LOG), for child-process
// tests of what exec does with tool calls; with CODEWHALE_TEST_CHANGING_SOURCE also a source
// whose list changes when its tool runs (as an MCP server's list_changed). Run by exec-harness.ts with `node --import tsx`.
import { Command, CommanderError } from "commander";
import { registerExecCommand } from "../../src/cli/exec-command.ts";
import { reportError } from "../../src/cli/fail.ts";
import { ExitCode } from "../../src/errors.ts";
import { staticToolSource } from "../../src/tools/source.ts";
import { type FakeTool, fakeToolSource } from "./fake-tool-source.ts";
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
    ...(process.env.CODEWHALE_TEST_CHANGING_SOURCE ? [changingSource()] : []),
  ],
});

/** With CODEWHALE_TEST_CHANGING_SOURCE: `mcp:fake`, whose `toggle` makes it list `late` too. */
function changingSource() {
  const toggle: FakeTool = {
    name: "toggle",
    inputSchema: { type: "object" },
    call: async () => {
      await source.change([toggle, { name: "late", inputSchema: { type: "object" } }]);
      return { content: "toggled" };
    },
  };
  const source = fakeToolSource("mcp:fake", [toggle]);
  return source;
}
try {
  await program.parseAsync(process.argv.slice(2), { from: "user" });
} catch (error) {
  process.exitCode = error instanceof CommanderError ? ExitCode.usage : reportError(error);
}

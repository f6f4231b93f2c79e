// The `codewhale` command line (dist/cli.cjs): builds the commander program from the command
// the command line names (command-table.ts: one file per command group, imported on use) and
// runs it (program.ts). Nothing here knows how a command works. The interactive `chat` alone
// starts from chat-main.ts instead (dist/chat.cjs, bin/codewhale.cjs).
import { registrationsFor } from "./command-table.ts";
import { buildProgramWith, runProgram } from "./program.ts";

void runProgram(async (argv) => buildProgramWith(await registrationsFor(argv)));

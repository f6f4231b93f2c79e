// The `codewhale` command line (dist/cli.cjs): builds the commander program from one file per
// command group and runs it (program.ts). Nothing here knows how a command works. The
// interactive `chat` alone starts from chat-main.ts instead (dist/chat.cjs, bin/codewhale.cjs).
import type { Command } from "commander";
import { registerAcpCommand } from "./acp-command.ts";
import { registerCaptureCommand } from "./capture-command.ts";
import { registerChatCommand } from "./chat-command.ts";
import { registerConfigCommand } from "./config-command.ts";
import { registerDoctorCommand } from "./doctor-command.ts";
import { registerExecCommand } from "./exec-command.ts";
import { registerExportCommand } from "./export-command.ts";
import { registerKeyCommand } from "./key-command.ts";
import { registerMcpCommand } from "./mcp-command.ts";
import { registerModelsCommand } from "./models-command.ts";
import { buildProgramWith, runProgram } from "./program.ts";
import { registerRewindCommands } from "./rewind-command.ts";
import { registerSandboxCommand } from "./sandbox-command.ts";
import { registerSessionsCommand } from "./sessions-command.ts";
import { registerTrustCommand } from "./trust-command.ts";

function registerAll(program: Command): void {
  registerAcpCommand(program);
  registerCaptureCommand(program);
  registerChatCommand(program);
  registerConfigCommand(program);
  registerDoctorCommand(program);
  registerExecCommand(program);
  registerExportCommand(program);
  registerKeyCommand(program);
  registerMcpCommand(program);
  registerModelsCommand(program);
  registerRewindCommands(program);
  registerSandboxCommand(program);
  registerSessionsCommand(program);
  registerTrustCommand(program);
}

void runProgram(() => buildProgramWith(registerAll));

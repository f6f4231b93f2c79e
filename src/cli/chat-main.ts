// The interactive session's own entry (dist/chat.cjs): the program with `chat` alone, so an
// interactive start loads only what its first frame needs (the config, trust and key checks,
// then dist/tui.cjs); the session's engine comes after that frame (chat-agent.ts). Started by
// bin/codewhale.cjs for the command lines default-command.ts turns into `chat`.
import { registerChatCommand } from "./chat-command.ts";
import { buildProgramWith, runProgram } from "./program.ts";

void runProgram(() => buildProgramWith((program) => registerChatCommand(program)));

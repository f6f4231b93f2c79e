// Which command lines mean the interactive `chat`: nothing at all, options alone, or a prompt.
// Called by main.ts before commander parses; chat-command.ts says what `chat` does.
import type { Command } from "commander";

/**
 * `codewhale` alone, `codewhale --resume <id>` and `codewhale "fix the tests"` mean `chat`.
 * A first word that could be a command name (lowercase letters and dashes) stays a command,
 * so a mistyped `codewhale sesions` is an error, not a prompt sent to the model.
 */
export function withDefaultCommand(program: Command, argv: string[]): string[] {
  const first = argv[0];
  if (first === undefined) return ["chat"];
  if (["-h", "--help", "-V", "--version"].includes(first)) return argv;
  if (first.startsWith("-")) return ["chat", ...argv];
  const known = first === "help" || program.commands.some((command) => command.name() === first);
  if (known || /^[a-z][a-z-]*$/.test(first)) return argv;
  return ["chat", ...argv];
}

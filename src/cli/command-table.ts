// The top-level commands of dist/cli.cjs and the module that registers each, imported only when
// the command line names one of its commands: `codewhale exec` initialises exec's modules and
// what they import, never those of export, sessions, search, doctor or mcp. Called by main.ts;
// a command line that names no command of the table (help, options, a typo) gets them all.
import type { Command } from "commander";

type Register = (program: Command) => void;

interface CommandGroup {
  /** The top-level commands the module registers, in the order it registers them. */
  names: readonly string[];
  load: () => Promise<Register>;
}

/** In the order of the top-level help. */
const COMMAND_GROUPS: readonly CommandGroup[] = [
  { names: ["acp"], load: async () => (await import("./acp-command.ts")).registerAcpCommand },
  {
    names: ["capture"],
    load: async () => (await import("./capture-command.ts")).registerCaptureCommand,
  },
  { names: ["chat"], load: async () => (await import("./chat-command.ts")).registerChatCommand },
  {
    names: ["config"],
    load: async () => (await import("./config-command.ts")).registerConfigCommand,
  },
  {
    names: ["doctor"],
    load: async () => (await import("./doctor-command.ts")).registerDoctorCommand,
  },
  { names: ["exec"], load: async () => (await import("./exec-command.ts")).registerExecCommand },
  {
    names: ["export"],
    load: async () => (await import("./export-command.ts")).registerExportCommand,
  },
  { names: ["key"], load: async () => (await import("./key-command.ts")).registerKeyCommand },
  { names: ["mcp"], load: async () => (await import("./mcp-command.ts")).registerMcpCommand },
  {
    names: ["models"],
    load: async () => (await import("./models-command.ts")).registerModelsCommand,
  },
  {
    names: ["rewind", "checkpoints"],
    load: async () => (await import("./rewind-command.ts")).registerRewindCommands,
  },
  {
    names: ["sandbox"],
    load: async () => (await import("./sandbox-command.ts")).registerSandboxCommand,
  },
  {
    names: ["sessions"],
    load: async () => (await import("./sessions-command.ts")).registerSessionsCommand,
  },
  {
    names: ["trust", "untrust"],
    load: async () => (await import("./trust-command.ts")).registerTrustCommand,
  },
];

/**
 * What registers the commands `argv` can need: the group of the command its first word names,
 * or every group (the top-level help, `help <command>`, options alone, an unknown command).
 */
export async function registrationsFor(argv: readonly string[]): Promise<Register> {
  const named = COMMAND_GROUPS.find((group) => group.names.includes(argv[0] ?? ""));
  const registers = await Promise.all((named ? [named] : COMMAND_GROUPS).map((g) => g.load()));
  return (program) => {
    for (const register of registers) register(program);
  };
}

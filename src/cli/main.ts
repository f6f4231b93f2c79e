// The `codewhale` command line: builds the commander program from one file per command group
// and maps failures to exit codes through fail.ts. Nothing here knows how a command works.
import { Command, CommanderError } from "commander";
import { ExitCode } from "../errors.ts";
import { VERSION } from "../version.ts";
import { registerCaptureCommand } from "./capture-command.ts";
import { registerConfigCommand } from "./config-command.ts";
import { registerDoctorCommand } from "./doctor-command.ts";
import { registerExecCommand } from "./exec-command.ts";
import { reportError } from "./fail.ts";
import { registerSessionsCommand } from "./sessions-command.ts";
import { watchStdout } from "./stdout-reader.ts";
import { registerTrustCommand } from "./trust-command.ts";

export function buildProgram(): Command {
  const program = new Command("codewhale")
    .description("A terminal coding agent whose session log is the receipt.")
    .version(VERSION, "-V, --version")
    .showHelpAfterError()
    .exitOverride();
  registerCaptureCommand(program);
  registerConfigCommand(program);
  registerDoctorCommand(program);
  registerExecCommand(program);
  registerSessionsCommand(program);
  registerTrustCommand(program);
  return program;
}

export async function main(argv: string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv, { from: "user" });
    return ExitCode.ok;
  } catch (error) {
    if (error instanceof CommanderError) {
      return error.exitCode === 0 ? ExitCode.ok : ExitCode.usage;
    }
    return reportError(error);
  }
}

/** Resolves once everything written to a stream so far has been handed to the OS. */
function flushed(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => {
    if (!stream.writable) resolve();
    else stream.write("", () => resolve());
  });
}

/**
 * Runs the command line and exits as soon as the command is done and its output flushed: an
 * idle process would otherwise wait for V8's background work (a late compile or GC task can
 * hold it for 100+ ms). Cleanup registered for shutdown (spill files, background processes,
 * locks) runs on "exit".
 */
async function run(): Promise<void> {
  watchStdout();
  const code = await main(process.argv.slice(2));
  await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
  process.exit(
    typeof process.exitCode === "number" && code === ExitCode.ok ? process.exitCode : code,
  );
}

void run();

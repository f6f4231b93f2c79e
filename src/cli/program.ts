// The commander program every entry builds on (main.ts: every command; chat-main.ts: the
// interactive one alone): its settings, commander's parse errors as one `codewhale:` line,
// failures mapped to exit codes through fail.ts, SDKs kept off the console, and the exit once
// the command's output is flushed.
import { Command, CommanderError } from "commander";
import { ExitCode, UsageError } from "../errors.ts";
import { VERSION } from "../version.ts";
import { withDefaultCommand } from "./default-command.ts";
import { reportError } from "./fail.ts";
import { watchStdout } from "./stdout-reader.ts";

/** The environment variables codewhale reads, for the top-level help. */
const ENVIRONMENT_HELP = `
Environment:
  CODEWHALE_HOME      where config.toml, sessions, the signing key and trust records live
                      (default ~/.codewhale)
  ANTHROPIC_API_KEY   the key of the built-in anthropic provider
  ANTHROPIC_BASE_URL  its endpoint (default https://api.anthropic.com)
  OPENAI_API_KEY      the key of the built-in openai provider
  OPENAI_BASE_URL     its endpoint (default https://api.openai.com/v1)
  CODEWHALE_DEBUG     set to let the provider SDKs print to the console (silenced otherwise)
  TZ                  the time zone of the local times \`sessions list\` shows
A provider you configure reads its key from the variable its api_key_env names.`;

/** The program with its commands registered by `register`, every one ready to parse. */
export function buildProgramWith(register: (program: Command) => void): Command {
  const program = new Command("codewhale")
    .description("A terminal coding agent whose session log is the receipt.")
    .version(VERSION, "-V, --version")
    // Errors become one line through usageErrorOf; help shown for an error is never printed.
    // Both settings are copied to every subcommand created after them.
    .configureOutput({ writeErr: () => undefined, outputError: () => undefined })
    .showHelpAfterError(false)
    .exitOverride()
    .addHelpText("after", ENVIRONMENT_HELP);
  register(program);
  forEachCommand(program, (command) => command.exitOverride(usageErrorOf(command)));
  return program;
}

function forEachCommand(command: Command, visit: (command: Command) => void): void {
  visit(command);
  for (const sub of command.commands) forEachCommand(sub, visit);
}

/**
 * The exit callback of one command: `--help` and `--version` (exit 0) pass through; a parse
 * error becomes a UsageError naming that command's help, e.g. "unknown option '--bogus' (see
 * codewhale exec --help)".
 */
function usageErrorOf(command: Command): (error: CommanderError) => never {
  return (error) => {
    if (error.exitCode === 0) throw error;
    throw new UsageError(`${parseProblem(command, error)} (see ${commandPath(command)} --help)`);
  };
}

function parseProblem(command: Command, error: CommanderError): string {
  // A command group run without a subcommand, or `help <unknown>`: commander prints help here.
  if (error.code === "commander.help") {
    const given = command.args[0] === "help" ? command.args[1] : command.args[0];
    return given === undefined ? "missing command" : `unknown command '${given}'`;
  }
  return error.message.replace(/^error: /, "").replace(/\s*\n\s*/g, " ");
}

function commandPath(command: Command): string {
  const names: string[] = [];
  for (let at: Command | null = command; at; at = at.parent) names.unshift(at.name());
  return names.join(" ");
}

/**
 * Provider SDKs log to the console on their own (the SSE parser prints the unparsable chunk
 * before it throws), which would add lines to the one-line stderr contract. codewhale itself
 * never uses the console, so it is silenced unless CODEWHALE_DEBUG is set.
 */
function silenceConsole(env: NodeJS.ProcessEnv = process.env): void {
  if (env.CODEWHALE_DEBUG) return;
  const quiet = () => undefined;
  for (const method of ["log", "info", "warn", "error", "debug"] as const) console[method] = quiet;
}

async function main(program: Command, argv: string[]): Promise<number> {
  try {
    await program.parseAsync(withDefaultCommand(program, argv), { from: "user" });
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
export async function runProgram(
  build: (argv: readonly string[]) => Command | Promise<Command>,
): Promise<void> {
  watchStdout();
  silenceConsole();
  const argv = process.argv.slice(2);
  const code = await main(await build(argv), argv);
  await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
  process.exit(
    typeof process.exitCode === "number" && code === ExitCode.ok ? process.exitCode : code,
  );
}

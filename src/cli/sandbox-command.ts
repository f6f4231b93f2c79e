// `codewhale sandbox [--sandbox MODE] [--cwd DIR] -- CMD [ARGS…]`: runs one command under the
// configured OS sandbox (`[sandbox]`, docs/sandbox.md) through the shared runner, the way the bash
// tool runs it, and prints its policed output; the policy goes to stderr with --explain. Exits
// with the command's code; 1 when the sandbox cannot run and the fallback refuses. `--seatbelt`
// prints the policy as a macOS Seatbelt profile instead. Registered by cli/main.ts.
import { constants } from "node:os";
import type { Command } from "commander";
import { configFlagsFromOptions, loadConfig } from "../config/index.ts";
import { SandboxUnavailableError, UsageError } from "../errors.ts";
import type { ProxiedConnection, RunResult } from "../runner/index.ts";
import { bwrapArgs, outputPolicyFor, runCommand, seatbeltProfile } from "../runner/index.ts";
import { sessionPolicy, setupSandbox } from "../tools/sandbox-setup.ts";
import { cwdOption } from "./cwd-option.ts";

interface SandboxOptions {
  sandbox?: string;
  cwd?: string;
  explain?: boolean;
  seatbelt?: boolean;
}

export function registerSandboxCommand(program: Command): void {
  program
    .command("sandbox")
    .description("run a command in the OS sandbox the bash tool uses")
    .argument("[command...]", "the command and its arguments, after --")
    .option("--sandbox <mode>", "workspace-write, read-only or off (config `sandbox.mode`)")
    .option("--cwd <dir>", "the workspace: run the command here (and find the project config)")
    .option("--explain", "print the policy and the bwrap arguments to stderr first")
    .option("--seatbelt", "print the policy as a macOS Seatbelt profile and run nothing")
    .addHelpText("after", "\nExample: codewhale sandbox -- touch ~/outside")
    .action((command: string[], options: SandboxOptions) => runSandboxed(command, options));
}

async function runSandboxed(command: string[], options: SandboxOptions): Promise<void> {
  const cwd = cwdOption(options.cwd);
  const { config } = loadConfig({
    cwd,
    env: process.env,
    flags: configFlagsFromOptions({ ...(options.sandbox ? { sandbox: options.sandbox } : {}) }),
  });
  const setup = { section: config.sandbox, workspace: cwd, env: process.env };
  if (options.seatbelt) {
    const policy = sessionPolicy(setup);
    process.stdout.write(policy ? seatbeltProfile(policy) : "; sandbox.mode = off: no profile\n");
    return;
  }
  if (command.length === 0) throw new UsageError("codewhale sandbox needs a command after --");
  const sandbox = await setupSandbox(setup);
  if (sandbox.refusal) throw new SandboxUnavailableError(sandbox.refusal);
  if (sandbox.notice) process.stderr.write(`codewhale: ${sandbox.notice}\n`);
  if (options.explain) {
    process.stderr.write(`codewhale: sandbox: ${sandbox.summary}\n`);
    if (sandbox.runSpec) {
      const args = bwrapArgs(sandbox.runSpec.policy, sandbox.runSpec.host);
      process.stderr.write(`codewhale: bwrap ${args.join(" ")}\n`);
    }
  }
  const policy = { ...outputPolicyFor(config.output), spillToTemp: false };
  const confined = sandbox.runSpec ? { sandbox: { ...sandbox.runSpec, onConnection } } : {};
  const result = await runCommand({ command, cwd, ...confined }, policy);
  process.stdout.write(result.output);
  for (const repo of result.nestedRepos ?? []) {
    process.stderr.write(
      `codewhale: sandbox: warning: nested repository linked from the index runs a program when git runs outside the sandbox: ${repo}\n`,
    );
  }
  process.exitCode = exitCodeOf(result);
}

/** Each connection the sandbox's proxy decided, on stderr: what a session log records. */
function onConnection(connection: ProxiedConnection): void {
  const verdict = connection.allowed ? "allowed" : "refused";
  const error = connection.error ? ` (${connection.error})` : "";
  process.stderr.write(
    `codewhale: sandbox: ${verdict} ${connection.host}:${connection.port}${error}\n`,
  );
}

/** The command's own exit code; death by a signal maps to 128 + its number, as shells do. */
function exitCodeOf(result: RunResult): number {
  if (result.exitCode !== null) return result.exitCode;
  const number = result.signal ? constants.signals[result.signal] : undefined;
  return number ? 128 + number : 1;
}

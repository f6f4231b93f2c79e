// `codewhale capture [--json] [--cols N --rows M] -- CMD [ARGS…]`: runs a command through the
// shared runner with the effective output policy and prints exactly what the model would see
// (with --json, also the metadata); --cols/--rows render it as a terminal of that size would.
// A truncated output names a spill file only with --keep-spill, which keeps it (a later sweep
// leaves it alone); without, nothing is spilled and the marker says so. Exits with the
// command's own code, 124 when --timeout killed it (as timeout(1) does), also when the reader
// of stdout has gone (see stdout-reader.ts); 2 for usage errors. Registered by cli/main.ts.
import { randomUUID } from "node:crypto";
import { constants } from "node:os";
import { setFlagsFromString } from "node:v8";
import type { Command } from "commander";
import { loadConfig } from "../config/index.ts";
import { UsageError } from "../errors.ts";
import type { OutputPolicy, RunResult } from "../runner/index.ts";
import {
  createSpillScope,
  outputPolicyFor,
  runCommand,
  sweepStaleSpillDirs,
} from "../runner/index.ts";
import { cwdOption } from "./cwd-option.ts";
import { nonNegativeInteger, positiveInteger } from "./flag-values.ts";

interface CaptureOptions {
  json?: boolean;
  maxBytes?: string;
  spill: boolean;
  redact: boolean;
  keepSpill?: boolean;
  timeout?: string;
  cwd?: string;
  cols?: string;
  rows?: string;
}

export function registerCaptureCommand(program: Command): void {
  program
    .command("capture")
    .description("run a command through the output policy and print what the model would see")
    .argument("<command...>", "the command and its arguments, after --")
    .option("--json", "print JSON with the output and its metadata")
    .option("--max-bytes <n>", "override output.max_bytes")
    .option("--no-spill", "do not write the full output to a spill file (the default)")
    .option("--no-redact", "do not redact secrets")
    .option("--keep-spill", "write the full output of a truncated run to a spill file and keep it")
    .option("--timeout <ms>", "kill the command's process tree after this many ms (exit 124)")
    .option("--cwd <dir>", "run the command here (and find the project config from here)")
    .option(
      "--cols <n>",
      "render as a terminal this many columns wide, 0 for no wrap (overrides output.terminal_cols)",
    )
    .option(
      "--rows <n>",
      "render as a terminal this many rows high (overrides output.terminal_rows)",
    )
    .addHelpText("after", "\nExample: codewhale capture --json -- npm test")
    .action((command: string[], options: CaptureOptions) => capture(command, options));
}

async function capture(command: string[], options: CaptureOptions): Promise<void> {
  // Keep the young generation at its start size: a long capture allocates fast but keeps little,
  // and a growing young generation was a quarter of the peak RSS. Set before the stream starts.
  setFlagsFromString("--semi-space-growth-factor=1");
  const cwd = options.cwd === undefined ? undefined : cwdOption(options.cwd);
  const policy = effectivePolicy(options);
  const timeoutMs =
    options.timeout === undefined ? undefined : positiveInteger("--timeout", options.timeout);
  sweepStaleSpillDirs();
  const spill = createSpillScope(`capture-${randomUUID().slice(0, 8)}`, {
    keep: options.keepSpill === true,
  });
  const result = await runCommand({ command, cwd, timeoutMs }, policy, { spill });
  setExitCodeAtExit(result.timedOut ? TIMED_OUT : exitCodeOf(result));
  if (options.json) process.stdout.write(`${JSON.stringify(toJson(result), null, 2)}\n`);
  else {
    process.stdout.write(result.output);
    for (const error of result.policyErrors) process.stderr.write(`codewhale: policy: ${error}\n`);
  }
  for (const note of notes(result, timeoutMs, options))
    process.stderr.write(`codewhale: ${note}\n`);
  if (process.env.CODEWHALE_CAPTURE_RUSAGE) {
    process.stderr.write(`codewhale: maxrss_kb=${process.resourceUsage().maxRSS}\n`);
  }
}

/** The exit code of a run that --timeout ended, as timeout(1) and GNU parallel use. */
const TIMED_OUT = 124;

/** The stderr lines after the output: a timeout, a kept spill file, or how to keep one. */
function notes(
  result: RunResult,
  timeoutMs: number | undefined,
  options: CaptureOptions,
): string[] {
  const out: string[] = [];
  if (result.timedOut) {
    out.push(
      `timed out after ${timeoutMs} ms: the command's process tree was killed (exit ${TIMED_OUT})`,
    );
  }
  if (result.spillPath) out.push(`full output kept in ${result.spillPath}`);
  else if (result.truncated && options.spill && !options.keepSpill) {
    out.push("output truncated; --keep-spill saves the full output to a file");
  }
  return out;
}

function effectivePolicy(options: CaptureOptions): OutputPolicy {
  const { config } = loadConfig({ cwd: options.cwd, env: process.env });
  const policy = outputPolicyFor(config.output);
  if (options.maxBytes !== undefined) {
    policy.maxBytes = positiveInteger("--max-bytes", options.maxBytes);
  }
  const terminal = policy.terminal ?? { cols: 0, rows: 24 };
  const cols = options.cols === undefined ? undefined : nonNegativeInteger("--cols", options.cols);
  if (cols !== undefined && cols !== 0 && (cols < 20 || cols > 1000))
    throw new UsageError(
      `--cols must be 0 (no wrap) or a width from 20 to 1000, got "${options.cols}"`,
    );
  const rows = options.rows === undefined ? undefined : positiveInteger("--rows", options.rows);
  if (rows !== undefined && (rows < 2 || rows > 500))
    throw new UsageError(`--rows must be a height from 2 to 500, got "${options.rows}"`);
  policy.terminal = { cols: cols ?? terminal.cols, rows: rows ?? terminal.rows };
  // Only a kept spill file is named: one removed at exit would be a path to nothing.
  if (!options.spill || !options.keepSpill) policy.spillToTemp = false;
  if (!options.redact) policy.redactSecrets = false;
  return policy;
}

/** The command's own exit code; death by a signal maps to 128 + its number, as shells do. */
function exitCodeOf(result: RunResult): number {
  if (result.exitCode !== null) return result.exitCode;
  const number = result.signal ? constants.signals[result.signal] : undefined;
  return number ? 128 + number : 1;
}

/** main() sets process.exitCode after the action; the command's own code must win. */
function setExitCodeAtExit(code: number): void {
  process.exitCode = code;
  process.once("exit", () => {
    process.exitCode = code;
  });
}

function toJson(result: RunResult) {
  return {
    output: result.output,
    exit_code: result.exitCode,
    signal: result.signal,
    timed_out: result.timedOut,
    original_bytes: result.originalBytes,
    original_lines: result.originalLines,
    delivered_bytes: result.deliveredBytes,
    truncated: result.truncated,
    spill_path: result.spillPath,
    redactions: result.redactions,
    policy_errors: result.policyErrors,
    duration_ms: result.durationMs,
  };
}

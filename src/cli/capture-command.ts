// `codewhale capture [--json] [--cols N --rows M] -- CMD [ARGS…]`: runs a command through the
// shared runner with the effective output policy and prints exactly what the model would see
// (with --json, also the metadata); --cols/--rows render it as a terminal of that size would.
// Exits with the command's own code, also when the reader of stdout has gone (see
// stdout-reader.ts); 2 for usage errors. Registered by cli/main.ts.
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
    .option("--no-spill", "do not write the full output to a spill file")
    .option("--no-redact", "do not redact secrets")
    .option("--keep-spill", "keep the spill file after exit (it is removed otherwise)")
    .option("--timeout <ms>", "kill the command's process tree after this many milliseconds")
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
  sweepStaleSpillDirs();
  const spill = createSpillScope(`capture-${randomUUID().slice(0, 8)}`, {
    keep: options.keepSpill === true,
  });
  const result = await runCommand(
    { command, cwd, timeoutMs: parseCount(options.timeout, "--timeout") },
    policy,
    { spill },
  );
  setExitCodeAtExit(exitCodeOf(result));
  if (options.json) process.stdout.write(`${JSON.stringify(toJson(result), null, 2)}\n`);
  else {
    process.stdout.write(result.output);
    for (const error of result.policyErrors) process.stderr.write(`codewhale: policy: ${error}\n`);
  }
  if (process.env.CODEWHALE_CAPTURE_RUSAGE) {
    process.stderr.write(`codewhale: maxrss_kb=${process.resourceUsage().maxRSS}\n`);
  }
}

function effectivePolicy(options: CaptureOptions): OutputPolicy {
  const { config } = loadConfig({ cwd: options.cwd, env: process.env });
  const policy = outputPolicyFor(config.output);
  const maxBytes = parseCount(options.maxBytes, "--max-bytes");
  if (maxBytes !== undefined) {
    if (maxBytes < 1) throw new UsageError("--max-bytes must be at least 1");
    policy.maxBytes = maxBytes;
  }
  const terminal = policy.terminal ?? { cols: 0, rows: 24 };
  const cols = parseCount(options.cols, "--cols");
  if (cols !== undefined && cols !== 0 && (cols < 20 || cols > 1000))
    throw new UsageError(`--cols takes 0 (no wrap) or a width from 20 to 1000, got ${cols}`);
  const rows = parseCount(options.rows, "--rows");
  if (rows !== undefined && (rows < 2 || rows > 500))
    throw new UsageError(`--rows takes a height from 2 to 500, got ${rows}`);
  policy.terminal = { cols: cols ?? terminal.cols, rows: rows ?? terminal.rows };
  if (!options.spill) policy.spillToTemp = false;
  if (!options.redact) policy.redactSecrets = false;
  return policy;
}

function parseCount(text: string | undefined, flag: string): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text.trim()))
    throw new UsageError(`${flag} takes a whole number, got "${text}"`);
  return Number(text);
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

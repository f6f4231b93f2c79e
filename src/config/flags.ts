// Turns the config-shaped command-line options (`--model`, `--max-steps`, `--effort`) into the partial
// config `loadConfig` takes as flags. Commands that accept these options share this mapping.
import type { ConfigInput } from "./schema.ts";

export interface ConfigFlagOptions {
  model?: string;
  maxSteps?: string;
  /** `--sandbox MODE`: `sandbox.mode`. */
  sandbox?: string;
  /** `--effort LEVEL`: `thinking.effort`. */
  effort?: string;
}

export function configFlagsFromOptions(options: ConfigFlagOptions): ConfigInput {
  const flags: Record<string, unknown> = {};
  if (options.model !== undefined) flags.model = options.model;
  if (options.maxSteps !== undefined) flags.max_steps = numberIfNumeric(options.maxSteps);
  if (options.sandbox !== undefined) flags.sandbox = { mode: options.sandbox };
  if (options.effort !== undefined) flags.thinking = { effort: options.effort };
  return flags as ConfigInput;
}

/** Numeric text becomes a number; anything else stays text so validation names the flag. */
function numberIfNumeric(text: string): number | string {
  return /^-?\d+(\.\d+)?$/.test(text.trim()) ? Number(text) : text;
}

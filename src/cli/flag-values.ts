// Command-line flag values checked in one place so every error reads the same:
// `--limit must be a positive integer, got "x"`, `--permission-mode must be one of …`. Used by
// the commands' option handling (sessions list, capture, exec, chat); a bad value is a
// UsageError (exit 2).
import { EFFORT_LEVELS, PERMISSION_MODES, type PermissionMode } from "../config/index.ts";
import { UsageError } from "../errors.ts";

/** Commander's collector for a repeatable option (`--allow`). */
export function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/** `--permission-mode`: one of the modes, or undefined when not given. */
export function permissionMode(value: string | undefined): PermissionMode | undefined {
  if (value === undefined) return undefined;
  const mode = PERMISSION_MODES.find((candidate) => candidate === value);
  if (!mode)
    throw new UsageError(`--permission-mode must be one of ${PERMISSION_MODES.join(", ")}`);
  return mode;
}

/** `--effort`: one of the reasoning effort levels, or undefined when not given. */
export function effortLevel(value: string | undefined): (typeof EFFORT_LEVELS)[number] | undefined {
  if (value === undefined) return undefined;
  const level = EFFORT_LEVELS.find((candidate) => candidate === value.trim().toLowerCase());
  if (!level) throw new UsageError(`--effort must be one of ${EFFORT_LEVELS.join(", ")}`);
  return level;
}

/** A whole number from 1, written in digits. */
export function positiveInteger(flag: string, text: string): number {
  const value = wholeNumber(flag, text, "a positive integer");
  if (value < 1) throw new UsageError(`${flag} must be a positive integer, got "${text}"`);
  return value;
}

/** A whole number from 0, written in digits. */
export function nonNegativeInteger(flag: string, text: string): number {
  return wholeNumber(flag, text, "a whole number (0 or more)");
}

function wholeNumber(flag: string, text: string, what: string): number {
  const trimmed = text.trim();
  const value = Number(trimmed);
  if (!/^\d+$/.test(trimmed) || !Number.isSafeInteger(value)) {
    throw new UsageError(`${flag} must be ${what}, got "${text}"`);
  }
  return value;
}

// Number-valued command-line flags, checked in one place so every error reads the same:
// `--limit must be a positive integer, got "x"`. Used by the commands' option handling
// (sessions list, capture); a bad value is a UsageError (exit 2).
import { UsageError } from "../errors.ts";

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

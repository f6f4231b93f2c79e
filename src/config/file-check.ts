// The compiled check of one config file: `configFileSchema` through compiled-check.ts, built on
// first use by a file big enough to pay for it (zod takes ~50 µs per KB of config, building the
// check ~15 ms at start-up), so a small file goes to zod alone. True means zod would accept the
// file; a file the check rejects goes to zod, whose problems are the ones reported. Used by
// files.ts.
import { type CompiledCheck, compileCheck } from "../compiled-check.ts";
import type { Table } from "./merge.ts";
import { configFileSchema } from "./schema.ts";

/** Files this big or bigger are checked by the compiled check first (and cached, files.ts). */
export const BIG_CONFIG_BYTES = 128 * 1024;

let compiled: CompiledCheck | null | undefined;

/** The compiled check of a config file (null if the schema could not be compiled). */
export function configFileCheck(): CompiledCheck | null {
  compiled ??= compileCheck(configFileSchema, { defaults: true, zodFallback: true });
  return compiled;
}

/** Whether the compiled check accepts `data`, a file of `size` characters; false: ask zod. */
export function passesFileCheck(data: Table, size: number): boolean {
  if (size < BIG_CONFIG_BYTES) return false;
  return configFileCheck()?.(data) === true;
}

// The config fingerprint written into `session/start`: hex SHA-256 of a canonical JSON of the
// effective config (keys sorted) with secrets removed, so two sessions can be compared for
// "same settings" without the log ever holding a credential.
import { createHash } from "node:crypto";
import { maskSecrets } from "./mask.ts";
import { isTable } from "./merge.ts";
import type { Config } from "./schema.ts";

export function configFingerprint(config: Config): string {
  return createHash("sha256").update(fingerprintInput(config)).digest("hex");
}

/** The exact text that is hashed: canonical JSON with secret-named keys dropped. */
export function fingerprintInput(config: Config): string {
  return canonicalJson(maskSecrets(config, "drop"));
}

/** JSON with object keys sorted at every depth and undefined members left out. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (!isTable(value)) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) out[key] = sortKeys(value[key]);
  return out;
}

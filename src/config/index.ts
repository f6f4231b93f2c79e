// The config layer's public entry: load the effective config, locate the sessions directory,
// fingerprint and mask it. Other layers import from here, not from the files behind it.
export type { ConfigFile, Env } from "./files.ts";
export { resolveHome } from "./files.ts";
export { configFingerprint } from "./fingerprint.ts";
export type { ConfigFlagOptions } from "./flags.ts";
export { configFlagsFromOptions } from "./flags.ts";
export { formatKeyPath } from "./key-path.ts";
export type { ConfigReport, LoadedConfig, LoadOptions } from "./load.ts";
export { inspectConfig, loadConfig, sessionsDir } from "./load.ts";
export { containsSecret, isSecretKey, MASK, maskSecrets, maskSecretText } from "./mask.ts";
export type { ConfigSource } from "./merge.ts";
export { walkLeaves } from "./merge.ts";
export * from "./schema.ts";

// The config layer's public entry: load the effective config, locate the sessions directory,
// read the system prompt file, fingerprint and mask it. Other layers import from here, not
// from the files behind it.
export type { ConfigFile, Env } from "./files.ts";
export { resolveHome } from "./files.ts";
export { configFingerprint } from "./fingerprint.ts";
export type { ConfigFlagOptions } from "./flags.ts";
export { configFlagsFromOptions } from "./flags.ts";
export { formatKeyPath } from "./key-path.ts";
export type { ConfigReport, LayerCheck, LoadedConfig, LoadOptions } from "./load.ts";
export { inspectConfig, loadConfig, sessionsDir } from "./load.ts";
export { containsSecret, isSecretKey, MASK, maskSecrets, maskSecretText } from "./mask.ts";
export type { ConfigLayer, ConfigSource } from "./merge.ts";
export { walkLeaves } from "./merge.ts";
export type { PromptFileRead } from "./path-checks.ts";
export { fileKindOf, MAX_PROMPT_FILE_BYTES, readPromptFile } from "./path-checks.ts";
export * from "./schema.ts";

// The config layer's public entry: load the effective config (a project's settings cut down by
// trust), locate the sessions directory, read the system prompt file, fingerprint and mask it,
// and edit the user's trust records. Other layers import from here, not the files behind it.

export { type AgentDefinition, loadAgentFiles } from "./agent-files.ts";
export {
  BUILTIN_BASE_URL_VARS,
  BUILTIN_CREDENTIAL_VARS,
  BUILTIN_PROVIDER_NAMES,
} from "./builtins.ts";
export { CHANGED_SINCE_TRUST } from "./definition-files.ts";
export type { ConfigFile, Env } from "./files.ts";
export { findProjectConfig, resolveHome, writableUserFile } from "./files.ts";
export { configFingerprint } from "./fingerprint.ts";
export type { ConfigFlagOptions } from "./flags.ts";
export { configFlagsFromOptions } from "./flags.ts";
export { changedGrantPaths } from "./grant-files.ts";
export { formatKeyPath } from "./key-path.ts";
export type { ConfigReport, LayerCheck, LoadedConfig, LoadOptions } from "./load.ts";
export { inspectConfig, loadConfig, sessionsDir } from "./load.ts";
export {
  containsSecret,
  isSecretKey,
  MASK,
  maskArgv,
  maskSecrets,
  maskSecretText,
  maskValues,
  secretsIn,
} from "./mask.ts";
export type { McpEntry } from "./mcp-file.ts";
export { addMcpServer, readMcpServerTables, removeMcpServer } from "./mcp-file.ts";
export { readMcpJson } from "./mcp-json.ts";
export type { ConfigLayer, ConfigSource } from "./merge.ts";
export { walkLeaves } from "./merge.ts";
export { expandModelAlias } from "./model-alias.ts";
export type { PromptFileRead } from "./path-checks.ts";
export { fileKindOf, MAX_PROMPT_FILE_BYTES, readPromptFile } from "./path-checks.ts";
export { projectRootOf, repositoryRoot } from "./project-root.ts";
export type { IgnoredSetting, TrustRule } from "./project-trust.ts";
export { gateProjectLayer, PROJECT_KEY_RULES, trustedSettings } from "./project-trust.ts";
export type { PromptPlace } from "./prompt-paths.ts";
export { isWithin, promptFilePlace, realOrResolved } from "./prompt-paths.ts";
export type { RuleTarget } from "./rule-file.ts";
export { addAllowRule, allowRuleTargets } from "./rule-file.ts";
export { loadRuleFiles, type RuleFile } from "./rule-files.ts";
export * from "./schema.ts";
export { loadSkillFiles, type SkillDefinition } from "./skill-files.ts";
export type { TrustRecord } from "./trust-file.ts";
export { readTrustedProjects, replaceTrustedProjects, writeTrustedProjects } from "./trust-file.ts";
export type { ProjectTrust, TrustState } from "./trust-record.ts";
export {
  canonicalPath,
  entryPath,
  findTrustEntry,
  trustFingerprint,
  trustNotice,
} from "./trust-record.ts";

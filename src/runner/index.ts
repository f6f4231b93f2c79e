// The runner layer's public entry: the command runner, the output-policy pipeline for text
// that is not a subprocess, spill scopes, process-group killing and shutdown hooks (also used
// by hooks/), and the policy types. Import from here.

export { nonPublicRange } from "./address-range.ts";
export type { ByteString } from "./byte-text.ts";
export type { ChildEnvOptions } from "./child-env.ts";
export { childEnvironment, isCredentialVariable } from "./child-env.ts";
export { stripControls } from "./control-stripper.ts";
export { jsonSafe, terminalSafe, terminalSafeLine } from "./escape-controls.ts";
export type { KnownSecrets } from "./known-secrets.ts";
export { knownSecretsFrom, MIN_KNOWN_SECRET_LENGTH } from "./known-secrets.ts";
export type { TetheredChild, TetheredSpec } from "./lifeline.ts";
export { spawnTethered } from "./lifeline.ts";
export type { LogWindow } from "./log-window.ts";
export type { OutputPipeline, PipelineOptions } from "./output-pipeline.ts";
export { applyOutputPolicy, createOutputPipeline } from "./output-pipeline.ts";
export type { OutputConfigSection, OutputPolicy, PolicyResult } from "./policy.ts";
export { DEFAULT_MAX_BYTES, DEFAULT_OUTPUT_POLICY, outputPolicyFor } from "./policy.ts";
export type { StopFlags } from "./process-tree.ts";
export { groupRuns, guardProcessTree } from "./process-tree.ts";
export { followSymlinks, MAX_SYMLINKS } from "./real-path.ts";
export { redactText } from "./redact-text.ts";
export { placeholder, Redactor } from "./redactor.ts";
export { cellWidth } from "./row-wrapper.ts";
export type { CommandSpec, RunResult } from "./run-command.ts";
export { confinedArgv, editorTerminalArgv, runCommand } from "./run-command.ts";
export type { SandboxAftermath } from "./sandbox-command-guard.ts";
export { aftermathNote, guardSandboxedCommand } from "./sandbox-command-guard.ts";
export { noteHostWrite } from "./sandbox-deep-run-files.ts";
export { removeIdlePlaceholders, sweepStalePlaceholders } from "./sandbox-placeholders.ts";
export type { BwrapHostOptions, SandboxPolicy } from "./sandbox-policy.ts";
export { bwrapArgs, describePolicy, resolveSandboxPolicy } from "./sandbox-policy.ts";
export { probeSandbox } from "./sandbox-probe.ts";
export type { ProxiedConnection } from "./sandbox-proxy.ts";
export { hostAllowed } from "./sandbox-proxy.ts";
export { sandboxRefusal, sandboxRefusalNote, socketNames } from "./sandbox-refusal.ts";
export { seatbeltProfile } from "./seatbelt-profile.ts";
export type { SecretlintBackstop } from "./secretlint-backstop.ts";
export { createSecretlintBackstop } from "./secretlint-backstop.ts";
export { onShutdown } from "./shutdown.ts";
export type { SpillFile, SpillScope, SpillScopeOptions } from "./spill.ts";
export { createSpillScope, sweepStaleSpillDirs } from "./spill.ts";

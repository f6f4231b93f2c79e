// The permission layer's public entry: rules, modes, policy building, what an ask offers and
// exec's denial.
// The agent's pre-execute composer calls `evaluatePermission` on every (effective) tool call.

export type { AskCall } from "./ask.ts";
export { editsProtected, execDenialMessage, sessionGrantRule, suggestRule } from "./ask.ts";
export { loadBashParser } from "./bash-parser.ts";
export { prepareBashRules } from "./bash-prepare.ts";
export { bashChangesNoFile } from "./bash-read-only.ts";
export type {
  PermissionCall,
  PermissionContext,
  PermissionDecision,
  PermissionPolicy,
} from "./evaluate.ts";
export { evaluatePermission } from "./evaluate.ts";
export type { PolicyInput, RuleEntry } from "./policy.ts";
export { checkPolicy, compilePolicy, withGrant } from "./policy.ts";
export type { ProtectedGroup } from "./protected-list.ts";
export { GIT_CONTROL_NAMES, PROTECTED_GROUPS, PROTECTED_PATHS } from "./protected-list.ts";
export type { ReadGateVerdicts } from "./read-gate.ts";
export { readGateFor } from "./read-gate.ts";
export type { ParsedRule, PermissionRule } from "./rules.ts";
export { parseRule } from "./rules.ts";
export type { RunSources, RunTarget } from "./run-targets.ts";
export { runTargets } from "./run-targets.ts";
export type { ToolKind, ToolTraits } from "./tool-kinds.ts";
export { privateHostsFor } from "./web-reach.ts";

// The permission side of the tools' read gate: which files a search or listing must leave out
// because a deny or ask rule with a path covers reading them. The agent builds one per session
// from the policy and hands it to the tools' context; tools/builtin/read-gate.ts consults it.
import type { PermissionContext, PermissionPolicy } from "./evaluate.ts";
import { readBlocker } from "./evaluate.ts";

export interface ReadGateVerdicts {
  /** False when no deny or ask rule names a path: nothing is ever left out. */
  active: boolean;
  /** `resolved`: where `absolute` really leads, when the caller knows it already. */
  blocks(tool: string, absolute: string, resolved?: string): boolean;
}

/**
 * The gate for a session. Only rules with a path count: a bare `read` or `grep` rule already
 * decides the whole call, so it leaves no single file out of what the call returns.
 */
export function readGateFor(policy: PermissionPolicy, ctx: PermissionContext): ReadGateVerdicts {
  const withPath = (list: PermissionPolicy["deny"]) =>
    list.filter((rule) => rule.matcher.kind === "path");
  const narrowed = { ...policy, deny: withPath(policy.deny), ask: withPath(policy.ask) };
  const blocker = readBlocker(narrowed, ctx);
  return {
    active: narrowed.deny.length > 0 || narrowed.ask.length > 0,
    blocks: (tool, absolute, resolved) => blocker(tool, absolute, resolved) !== undefined,
  };
}

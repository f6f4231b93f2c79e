// Deciding one bash call against a few rules, for the bash-rule tests (substitution.test.ts,
// bash-parser.test.ts): a `bash` call, a policy from allow and deny rules (bypass mode on
// request), and the decision in a workspace the caller names.
import type { PermissionCall, PermissionContext } from "../../../src/permissions/index.ts";
import { compilePolicy, evaluatePermission } from "../../../src/permissions/index.ts";

export interface BashRules {
  allow?: string[];
  deny?: string[];
  bypass?: boolean;
}

export const bashCall = (command: string): PermissionCall => ({
  name: "bash",
  arguments: { command },
  tool: { readOnly: false, kind: "execute" },
});

export function bashPolicy(rules: BashRules) {
  const entries = (list: string[] = []) => list.map((text) => ({ text, source: "flag" }));
  return compilePolicy({
    mode: rules.bypass ? "bypass" : "default",
    allow: entries(rules.allow),
    ask: [],
    deny: entries(rules.deny),
  });
}

export function decideBash(command: string, rules: BashRules, ctx: PermissionContext) {
  return evaluatePermission(bashCall(command), bashPolicy(rules), ctx);
}

// Loads the bash parser before a call is evaluated, only when a bash rule with a specifier
// applies to it, so start-up and calls under rule-less policies never pay for it. The agent's
// pre-execute seam awaits it; evaluatePermission itself stays synchronous.
import { loadBashParser } from "./bash-parser.ts";
import { needsBashParser } from "./bash-rules.ts";
import type { PermissionPolicy } from "./evaluate.ts";

/**
 * Resolves once the parser is loaded, or at once when no bash rule needs it. A parser that
 * fails to load is not an error here: every bash command then counts as unreadable, so allow
 * rules refuse it and deny and ask rules ask (bash-split.ts).
 */
export async function prepareBashRules(tool: string, policy: PermissionPolicy): Promise<void> {
  if (!needsBashParser(tool, policy)) return;
  await loadBashParser().catch(() => undefined);
}

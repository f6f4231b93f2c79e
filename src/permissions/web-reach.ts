// Which hosts web_fetch may reach on this machine's own networks: the hosts an allow rule names
// exactly (`web_fetch(domain:localhost)`), never through `*.` or a bare `web_fetch` rule. The
// agent builds it once per session from the configured policy and hands it to the tool's
// context; the tool refuses a loopback, private or link-local address for any other host.

import { hostAllowed } from "../runner/index.ts";
import type { PermissionPolicy } from "./evaluate.ts";

/** A check: true when `host` may resolve to (or be) a loopback, private or link-local address. */
export function privateHostsFor(policy: PermissionPolicy): (host: string) => boolean {
  const named = policy.allow.flatMap((rule) =>
    rule.tool === "web_fetch" &&
    rule.matcher.kind === "domain" &&
    !rule.matcher.host.startsWith("*.")
      ? [rule.matcher.host]
      : [],
  );
  return (host) => named.length > 0 && hostAllowed(named, host);
}

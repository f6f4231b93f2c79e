// The macOS Seatbelt (sandbox-exec) profile of a SandboxPolicy: the same writable roots, read-only
// paths inside them, hidden paths and network rule as the bubblewrap arguments of
// sandbox-policy.ts, in SBPL. Printed by `codewhale sandbox --seatbelt`; not yet used to run
// commands, and never run on a Mac (docs/sandbox.md, "macOS"). Rules are written with
// require-all/require-not, so no rule depends on SBPL's order of precedence.
import type { SandboxPolicy } from "./sandbox-policy.ts";

/** Where a proxy for an allow list would listen on macOS (no network namespace there). */
const SEATBELT_PROXY_PORT = 3128;

/** The SBPL profile enforcing `policy` (for `sandbox-exec -p PROFILE -- CMD`). */
export function seatbeltProfile(policy: SandboxPolicy): string {
  const lines = [
    `; codewhale sandbox policy ${policy.hash}: ${policy.mode}, network ${networkOf(policy)}`,
    "(version 1)",
    "(deny default)",
    "(allow process-exec process-fork)",
    "(allow signal (target same-sandbox))",
    "(allow sysctl-read)",
    "(allow mach-lookup)",
    "(allow ipc-posix-shm)",
    '(allow file-write-data (require-all (path "/dev/null") (vnode-type CHARACTER-DEVICE)))',
    '(allow file-ioctl (regex #"^/dev/tty"))',
    readRule(policy),
    ...writeRules(policy),
    ...networkRules(policy),
  ];
  return `${lines.join("\n")}\n`;
}

function networkOf(policy: SandboxPolicy): string {
  if (policy.network === "on") return "on";
  return policy.allow.length > 0 ? `only ${policy.allow.join(", ")} (proxy)` : "off";
}

/** Everything readable except the hidden paths. */
function readRule(policy: SandboxPolicy): string {
  if (policy.denyRead.length === 0) return "(allow file-read*)";
  const hidden = policy.denyRead.map((path) => `(require-not ${pathFilter(path)})`);
  return `(allow file-read* (require-all ${hidden.join(" ")}))`;
}

/** Each writable root, less the read-only paths inside it. */
function writeRules(policy: SandboxPolicy): string[] {
  return policy.writable.map((root) => {
    const inside = policy.readOnly.filter((path) => path === root || path.startsWith(`${root}/`));
    if (inside.length === 0) return `(allow file-write* (subpath ${quote(root)}))`;
    const kept = inside.map((path) => `(require-not ${pathFilter(path)})`);
    return `(allow file-write* (require-all (subpath ${quote(root)}) ${kept.join(" ")}))`;
  });
}

function networkRules(policy: SandboxPolicy): string[] {
  if (policy.network === "on") return ["(allow network*)"];
  if (policy.allow.length === 0) return [];
  // Only the proxy, on loopback; it decides which hosts (sandbox-proxy.ts).
  return [`(allow network-outbound (remote ip "localhost:${SEATBELT_PROXY_PORT}"))`];
}

/** A directory and everything under it, or one file: both match a path and its children. */
function pathFilter(path: string): string {
  return `(subpath ${quote(path)})`;
}

/** An SBPL string literal. */
function quote(text: string): string {
  return `"${text.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
}

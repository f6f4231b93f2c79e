// What a command's sandbox receipt (`tool/result.sandbox`) and a proxied connection
// (`sandbox/connection`) say to a person, the same in `sessions show` and the Markdown and HTML
// exports: the mode, the network rule and the policy's hash, or that it ran outside the sandbox.
import { terminalSafeLine } from "../runner/index.ts";
import type { EventOf } from "../session/events.ts";

type SandboxReceipt = NonNullable<EventOf<"tool/result">["sandbox"]>;

/**
 * "sandbox: workspace-write, network off (policy 3f1c0a9b2d4e5f60)" (then the nested repositories
 * the command left, when it left any), or "ran outside the OS sandbox".
 */
export function sandboxNote(receipt: SandboxReceipt): string {
  if (receipt.mode === "none") return "ran outside the OS sandbox";
  const network =
    receipt.network === "on"
      ? "network on"
      : receipt.allow && receipt.allow.length > 0
        ? `network only to ${receipt.allow.join(", ")}`
        : "network off";
  const hash = receipt.policy_hash ? ` (policy ${receipt.policy_hash})` : "";
  const nested = receipt.nested_repos?.length
    ? `; warning: nested repository runs a program under host git: ${receipt.nested_repos.map(terminalSafeLine).join("; ")}`
    : "";
  return `sandbox: ${receipt.mode}, ${network}${hash}${nested}`;
}

/** "api.github.com:443 allowed by the sandbox's proxy", or "... refused (reason)". */
export function connectionNote(event: EventOf<"sandbox/connection">): string {
  const verdict = event.allowed ? "allowed" : "refused";
  const why = event.error ? ` (${event.error})` : "";
  const call = event.call_id ? ` for ${event.call_id}` : "";
  return `${event.host}:${event.port} ${verdict} by the sandbox's proxy${call}${why}`;
}

// web_fetch's check of where a URL leads, made for every hop before connecting: the sandbox's
// `[sandbox.network] allow` list when one restricts the network, then the addresses the host
// resolves to (loopback, private, link-local, cloud metadata and every other non-public range
// refused, IPv4-mapped IPv6 read as IPv4) unless the user allowed that host by name. The
// address it returns is the one the request connects to (web-request.ts pins it).
import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import { hostAllowed, nonPublicRange } from "../../runner/index.ts";
import { ToolProblem } from "./problem.ts";

/** What web_fetch may reach besides public addresses, and the sandbox's list when it has one. */
export interface WebReach {
  /** True when an allow rule names `host` exactly: it may be on this machine or a private network. */
  privateHosts(host: string): boolean;
  /** The hosts `[sandbox.network] allow` lists when the sandbox restricts the network, else null. */
  sandboxAllow: readonly string[] | null;
}

/** One checked address to connect to. */
export interface CheckedAddress {
  address: string;
  family: 4 | 6;
}

/** The host of a URL as rules compare it: no IPv6 brackets, lower case, no final dot. */
export function urlHost(url: URL): string {
  const host = url.hostname;
  const bare = host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
  return bare.toLowerCase().replace(/\.$/, "");
}

/** Checks `url`'s host and resolves it; throws a ToolProblem (one line) when refused. */
export async function checkedAddress(
  url: URL,
  reach: WebReach,
  signal: AbortSignal,
): Promise<CheckedAddress> {
  const host = urlHost(url);
  if (reach.sandboxAllow && !hostAllowed(reach.sandboxAllow, host)) {
    throw new ToolProblem(
      `web_fetch refused ${url.href}: ${host} is not in [sandbox.network] allow (the OS sandbox restricts the network to ${reach.sandboxAllow.join(", ") || "no host"})`,
    );
  }
  const addresses = await resolve(host, signal);
  if (!reach.privateHosts(host)) {
    for (const { address } of addresses) {
      const range = nonPublicRange(address);
      if (range) {
        const what =
          address === host ? `${host} is ${range}` : `${host} resolves to ${address}, ${range}`;
        throw new ToolProblem(
          `web_fetch refused ${url.href}: ${what}; a configured allow rule web_fetch(domain:${host}) (or --allow) lets it through`,
        );
      }
    }
  }
  const [first] = addresses;
  if (!first) throw new ToolProblem(`web_fetch: ${host} has no address`);
  return first;
}

/** The host's addresses, IPv4 first; an IP literal is its own address. */
async function resolve(host: string, signal: AbortSignal): Promise<CheckedAddress[]> {
  const literal = isIP(host);
  if (literal === 4 || literal === 6) return [{ address: host, family: literal }];
  const found = await abortable(lookup(host, { all: true }), signal).catch((error: unknown) => {
    if (signal.aborted) throw error;
    throw new ToolProblem(`web_fetch: cannot resolve ${host}`);
  });
  const checked = found.map((entry) => ({
    address: entry.address,
    family: entry.family === 6 ? (6 as const) : (4 as const),
  }));
  return checked.sort((a, b) => a.family - b.family);
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

// Which addresses are not public ones (loopback, private, link-local, cloud metadata, …, an
// IPv4-mapped IPv6 address read as IPv4), named as a refusal says it. Shared by web_fetch's
// check of where a URL leads (tools/builtin/web-address.ts) and the sandbox's proxy
// (sandbox-proxy.ts), so both refuse the same ranges.
import ipaddr from "ipaddr.js";

/** Cloud instance metadata services, named in the refusal (they hold credentials). */
const METADATA = new Set(["169.254.169.254", "fd00:ec2::254", "100.100.100.200"]);

/**
 * What makes an address not a public one ("a loopback address", "a cloud metadata address"),
 * or undefined for a public unicast address.
 */
export function nonPublicRange(address: string): string | undefined {
  if (!ipaddr.isValid(address)) return "not an IP address";
  const parsed = ipaddr.process(address);
  const normal = parsed.toNormalizedString();
  if (METADATA.has(address) || METADATA.has(normal) || METADATA.has(parsed.toString())) {
    return "a cloud metadata address";
  }
  const range = parsed.range();
  if (range === "unicast") return undefined;
  return RANGE_NAMES[range] ?? `a ${range} address`;
}

const RANGE_NAMES: Readonly<Record<string, string>> = {
  loopback: "a loopback address",
  private: "a private network address",
  uniqueLocal: "a private network address",
  linkLocal: "a link-local address",
  carrierGradeNat: "a carrier-grade NAT address",
  unspecified: "the unspecified address",
  broadcast: "a broadcast address",
  multicast: "a multicast address",
  reserved: "a reserved address",
};

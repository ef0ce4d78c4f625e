import { lookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";

/** Where a webhook may be sent: the URL rules and the address rules (docs/decisions/023-webhooks.md). */
export interface DestinationRules {
  /** WEBHOOK_ALLOW_HTTP: http:// as well as https://. */
  allowHttp: boolean;
  /** WEBHOOK_ALLOW_PRIVATE: loopback, private, link-local and metadata addresses too. */
  allowPrivate: boolean;
}

/** A destination refused: the message is a sentence naming why (it goes into a 400 or an attempt's error). */
export class DestinationRefused extends Error {}

/**
 * Addresses a webhook may never reach unless WEBHOOK_ALLOW_PRIVATE=true: this machine, private networks,
 * link-local (169.254.169.254 and fd00:ec2::254, the cloud metadata services, are in these), carrier-grade
 * NAT, multicast and the reserved ranges.
 */
const PRIVATE = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const)
  PRIVATE.addSubnet(network, prefix, "ipv4");
for (const [network, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
  ["64:ff9b::", 96],
] as const)
  PRIVATE.addSubnet(network, prefix, "ipv6");

/** Whether an address is one a webhook may not reach (an IPv4-mapped IPv6 address is judged as its IPv4 address). */
export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped) return PRIVATE.check(mapped, "ipv4");
  const version = isIP(address);
  if (version === 0) return true;
  return PRIVATE.check(address, version === 4 ? "ipv4" : "ipv6");
}

/** The URL's own rules, without resolving it: a message naming what is wrong, or undefined. */
export function urlProblem(value: string, { allowHttp }: Pick<DestinationRules, "allowHttp">): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "url must be an absolute URL";
  }
  if (url.protocol !== "https:" && !(allowHttp && url.protocol === "http:")) {
    return allowHttp ? "url must start with https:// or http://" : "url must start with https://";
  }
  if (url.username || url.password) return "url must not carry a user name or password";
  return undefined;
}

export interface ResolvedDestination {
  url: URL;
  /** The checked address to connect to: never resolved again, so a DNS answer that changes (rebinding) is not believed. */
  address: string;
  family: 4 | 6;
}

/**
 * Resolves the URL's host and checks every address it has: refused (DestinationRefused) when the URL
 * breaks its rules, the host does not resolve, or any address is private (unless allowed).
 */
export async function resolveDestination(value: string, rules: DestinationRules): Promise<ResolvedDestination> {
  const problem = urlProblem(value, rules);
  if (problem) throw new DestinationRefused(problem);
  const url = new URL(value);
  const host = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
  let addresses: Array<{ address: string; family: number }>;
  if (isIP(host)) addresses = [{ address: host, family: isIP(host) }];
  else {
    try {
      addresses = await lookup(host, { all: true, verbatim: true });
    } catch {
      throw new DestinationRefused(`url's host ${host} does not resolve`);
    }
  }
  if (addresses.length === 0) throw new DestinationRefused(`url's host ${host} does not resolve`);
  if (!rules.allowPrivate) {
    const refused = addresses.find(({ address }) => isPrivateAddress(address));
    if (refused) {
      throw new DestinationRefused(
        `url's host ${host} resolves to ${refused.address}, a loopback, private, link-local or metadata address, which webhooks may not reach`,
      );
    }
  }
  const [first] = addresses;
  return { url, address: first!.address, family: first!.family === 6 ? 6 : 4 };
}

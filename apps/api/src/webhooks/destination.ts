import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import ipaddr from "ipaddr.js";

/** Where a webhook may be sent: the URL rules and the address rules (docs/decisions/023-webhooks.md). */
export interface DestinationRules {
  /** WEBHOOK_ALLOW_HTTP: http:// as well as https://. */
  allowHttp: boolean;
  /** WEBHOOK_ALLOW_PRIVATE: loopback, private, link-local and metadata addresses too. */
  allowPrivate: boolean;
}

/** A destination refused: the message is a sentence naming why (it goes into a 400 or an attempt's error). */
export class DestinationRefused extends Error {}

/** The 32 bits at `parts[at]` and `parts[at + 1]` of an IPv6 address, as an IPv4 address. */
const ipv4At = (parts: readonly number[], at: number, flip = 0): ipaddr.IPv4 => {
  const bits = (((parts[at]! << 16) | parts[at + 1]!) ^ flip) >>> 0;
  return new ipaddr.IPv4([bits >>> 24, (bits >>> 16) & 0xff, (bits >>> 8) & 0xff, bits & 0xff]);
};

// RFC 8215's local-use NAT64 prefix: the network picks where in it the IPv4 address sits (RFC 6052 allows
// six prefix lengths), so it cannot be read from the address, and the whole /48 is refused.
const LOCAL_USE_NAT64: [ipaddr.IPv6, number] = [ipaddr.IPv6.parse("64:ff9b:1::"), 48];

/**
 * The IPv4 addresses an IPv6 address carries to a gateway that will connect to them (NAT64, 6to4, Teredo):
 * a webhook to one of those reaches that IPv4 address, so it is judged as well. None when the range
 * carries none, or none that can be read from the address.
 */
function embeddedIpv4(address: ipaddr.IPv6, range: string): ipaddr.IPv4[] {
  const { parts } = address;
  switch (range) {
    case "ipv4Mapped":
    case "rfc6145":
      return [ipv4At(parts, 6)];
    case "rfc6052":
      return address.match(LOCAL_USE_NAT64) ? [] : [ipv4At(parts, 6)];
    case "6to4":
      return [ipv4At(parts, 1)];
    case "teredo":
      // The Teredo server's address, and the client's, stored with every bit flipped (RFC 4380).
      return [ipv4At(parts, 2), ipv4At(parts, 6, 0xffffffff)];
    default:
      return [];
  }
}

/**
 * Why a webhook may not reach this address (unless WEBHOOK_ALLOW_PRIVATE=true): the name of its range
 * (ipaddr.js's: loopback, private, linkLocal (169.254.169.254, a cloud metadata service), uniqueLocal
 * (fd00:ec2::254, another), carrierGradeNat, reserved, ...), or undefined when it is a public unicast
 * address. Every range but `unicast` is refused, except that an address carrying an IPv4 address is
 * judged by that address.
 */
export function addressRefusal(address: string): string | undefined {
  if (!ipaddr.isValid(address)) return "not an IP address";
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === "ipv4") {
    const range = parsed.range();
    return range === "unicast" ? undefined : range;
  }
  const ipv6 = parsed as ipaddr.IPv6;
  const range: string = ipv6.range();
  // IPv4-compatible addresses (::/96, RFC 4291, deprecated) have no range of their own in ipaddr.js (it
  // reads the dotted `::a.b.c.d` as IPv4-mapped, but `::7f00:1`, as URLs write it, as unicast), yet a
  // host that still routes them reaches the IPv4 address: judged as that address. `::` and `::1` are
  // ranges of their own (unspecified, loopback), refused below.
  if (range === "unicast" && ipv6.parts.slice(0, 6).every((part) => part === 0)) {
    const carried = ipv4At(ipv6.parts, 6);
    return carried.range() === "unicast"
      ? undefined
      : `IPv4-compatible, carrying ${carried.toString()} (${carried.range()})`;
  }
  if (range === "unicast") return undefined;
  const carried = embeddedIpv4(ipv6, range);
  if (carried.length === 0) return range;
  const refused = carried.find((ipv4) => ipv4.range() !== "unicast");
  return refused ? `${range}, carrying ${refused.toString()} (${refused.range()})` : undefined;
}

/** Whether an address is one a webhook may not reach. */
export const isPrivateAddress = (address: string): boolean => addressRefusal(address) !== undefined;

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
    for (const { address } of addresses) {
      const refusal = addressRefusal(address);
      if (refusal) {
        throw new DestinationRefused(
          `url's host ${host} resolves to ${address} (${refusal}), not a public unicast address: loopback, private, link-local, metadata and reserved addresses are ones webhooks may not reach`,
        );
      }
    }
  }
  const [first] = addresses;
  return { url, address: first!.address, family: first!.family === 6 ? 6 : 4 };
}

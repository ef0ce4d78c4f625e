import express from "express";
import { isIP } from "node:net";

/**
 * The longest text of an IP address: an IPv6 address with an embedded IPv4 one
 * (`0000:0000:0000:0000:0000:ffff:255.255.255.255`). `isIP` also accepts a zone
 * id of any length (`fe80::1%...`), so the length is bounded here.
 */
const IP_ADDRESS_MAX_LENGTH = 45;

/**
 * `req.ip` with no proxy trusted (Express's default, and this app's): the
 * socket's address, which is what Express's getter answers then too, after
 * parsing X-Forwarded-For on every call. Any `trust proxy` setting gets
 * Express's own getter, whose answer is believed only when it is an IP
 * address: X-Forwarded-For is text a client writes, and what Express picks
 * from it keys the failure budget, the logs and the activity log's
 * `clientAddress`. Anything else (a name, `host:port`, 100 characters of junk)
 * gives the socket's address, as if no proxy were trusted.
 */
export function socketAddressUnlessProxied(app: express.Express): void {
  const expressIp = Object.getOwnPropertyDescriptor(express.request, "ip")?.get;
  if (!expressIp) return;
  Object.defineProperty(app.request, "ip", {
    configurable: true,
    enumerable: true,
    get(this: express.Request): string | undefined {
      const trust: unknown = this.app.get("trust proxy");
      if (trust === false || trust === undefined) return this.socket.remoteAddress;
      const forwarded = expressIp.call(this) as string | undefined;
      return forwarded !== undefined && forwarded.length <= IP_ADDRESS_MAX_LENGTH && isIP(forwarded) !== 0
        ? forwarded
        : this.socket.remoteAddress;
    },
  });
}

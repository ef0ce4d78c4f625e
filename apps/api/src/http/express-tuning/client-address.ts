import express from "express";

/**
 * `req.ip` with no proxy trusted (Express's default, and this app's): the
 * socket's address, which is what Express's getter answers then too, after
 * parsing X-Forwarded-For on every call. Any `trust proxy` setting gets
 * Express's own getter.
 */
export function socketAddressUnlessProxied(app: express.Express): void {
  const expressIp = Object.getOwnPropertyDescriptor(express.request, "ip")?.get;
  if (!expressIp) return;
  Object.defineProperty(app.request, "ip", {
    configurable: true,
    enumerable: true,
    get(this: express.Request): string | undefined {
      const trust: unknown = this.app.get("trust proxy");
      return trust === false || trust === undefined ? this.socket.remoteAddress : (expressIp.call(this) as string | undefined);
    },
  });
}

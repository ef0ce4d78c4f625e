import type { RequestHandler } from "express";
import helmet from "helmet";

export function securityHeaders({ production }: { production: boolean }): RequestHandler {
  return helmet({
    contentSecurityPolicy: {
      directives: {
        "style-src": ["'self'", "'unsafe-inline'"],
        "img-src": ["'self'", "data:"],
        // TLS is the proxy's business; a plain-HTTP development API must not ask for upgrades.
        "upgrade-insecure-requests": null,
      },
    },
    strictTransportSecurity: production,
    crossOriginResourcePolicy: { policy: "cross-origin" },
  });
}

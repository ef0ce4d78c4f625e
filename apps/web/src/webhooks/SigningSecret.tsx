import type { WebhookWithSecret } from "@petstore/contract";
import type { ReactNode } from "react";
import { ShownOnceSecret } from "../design-system/ShownOnceSecret.js";

/**
 * An endpoint's signing secret, just created or rotated: the only time anyone
 * sees it (lists carry its first characters only). `pathname`: the page the
 * Copy message belongs to.
 */
export function SigningSecret({
  created,
  pathname,
  children,
}: {
  created: WebhookWithSecret;
  pathname: string;
  children: ReactNode;
}) {
  return (
    <ShownOnceSecret
      label="Signing secret"
      secret={created.secret}
      hint="It will not be shown again: copy it now and give it to the receiver, which checks each event's signature with it."
      copiedMessage={`Copied the signing secret for ${created.webhook.url}.`}
      noun="secret"
      pathname={pathname}
    >
      {children}
    </ShownOnceSecret>
  );
}

import { NAME_MAX_LENGTH } from "@petstore/contract";
import { browserLabel } from "../staff/session-cookie.js";

/**
 * Passkey providers by AAGUID, the authenticator model an attestation names (even a 'none' one, for
 * most providers), as the community list of passkey providers names them. Only the common ones: any
 * other is named after the browser it was created in.
 */
const PROVIDERS: Record<string, string> = {
  "ea9b8d66-4d01-1d21-3ce4-b6b48cb575d4": "Google Password Manager",
  "fbfc3007-154e-4ecc-8c0b-6e020557d7bd": "iCloud Keychain",
  "08987058-cadc-4b81-b6e1-30de50dcbe96": "Windows Hello",
  "9ddd1817-af5a-4672-a2b9-3e3dd95000a9": "Windows Hello",
  "6028b017-b1d4-4c02-b4b3-afcdafc96bb2": "Windows Hello",
  "bada5566-a7aa-401f-bd96-45619a55120d": "1Password",
  "d548826e-79b4-db40-a3d8-11116f7e8349": "Bitwarden",
};

/**
 * The name a new passkey gets when the person gave none: its provider (by AAGUID), else the browser it
 * was created in (`Chrome on Linux`), else `Passkey`; with ` (2)`, ` (3)`... when one of theirs has it
 * already, so every `Remove <name>` button of the Account page is told apart. They can rename it.
 */
export function defaultPasskeyName(aaguid: string, userAgent: string | undefined, taken: readonly string[]): string {
  const base = PROVIDERS[aaguid.toLowerCase()] ?? browserLabel(userAgent) ?? "Passkey";
  return uniqueName(base, taken);
}

/** The name, or the first of `name (2)`, `name (3)`... that none of `taken` is. */
export function uniqueName(name: string, taken: readonly string[]): string {
  const names = new Set(taken.map((t) => t.toLowerCase()));
  if (!names.has(name.toLowerCase())) return name;
  for (let n = 2; ; n++) {
    const suffix = ` (${n})`;
    const candidate = name.slice(0, NAME_MAX_LENGTH - suffix.length).trimEnd() + suffix;
    if (!names.has(candidate.toLowerCase())) return candidate;
  }
}

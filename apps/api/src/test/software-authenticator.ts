import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from "node:crypto";

/**
 * A WebAuthn authenticator in software, for tests: one ES256 key pair per credential, 'none'
 * attestation, discoverable credentials (the user handle is kept and answered), user presence and
 * verification flags as a platform authenticator with a PIN or a fingerprint sets them. It answers the
 * JSON that `@simplewebauthn/browser` hands the server, so a test can run a whole ceremony against the
 * real API without a browser. Nothing here is checked against anything: what the server refuses is
 * what the tests are about.
 */

type Cbor = number | string | Uint8Array | Map<Cbor, Cbor> | Cbor[];

/** The little of CBOR (RFC 8949) an attestation object and a COSE key need: integers, strings, bytes, maps. */
export function cbor(value: Cbor): Buffer {
  const head = (major: number, length: number): Buffer => {
    if (length < 24) return Buffer.from([(major << 5) | length]);
    if (length < 0x100) return Buffer.from([(major << 5) | 24, length]);
    if (length < 0x10000) return Buffer.from([(major << 5) | 25, length >> 8, length & 0xff]);
    const b = Buffer.alloc(5);
    b[0] = (major << 5) | 26;
    b.writeUInt32BE(length, 1);
    return b;
  };
  if (typeof value === "number") return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === "string") {
    const bytes = Buffer.from(value, "utf8");
    return Buffer.concat([head(3, bytes.length), bytes]);
  }
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), value]);
  if (Array.isArray(value)) return Buffer.concat([head(4, value.length), ...value.map(cbor)]);
  return Buffer.concat([head(5, value.size), ...[...value].flatMap(([k, v]) => [cbor(k), cbor(v)])]);
}

const sha256 = (data: Uint8Array | string) => createHash("sha256").update(data).digest();
const b64url = (data: Uint8Array) => Buffer.from(data).toString("base64url");

/** authenticatorData flags (WebAuthn §6.1). */
export const FLAGS = { UP: 0x01, UV: 0x04, BE: 0x08, BS: 0x10, AT: 0x40 } as const;

interface Credential {
  id: Buffer;
  privateKey: KeyObject;
  publicKey: KeyObject;
  rpId: string;
  userHandle: string;
  counter: number;
}

export interface CeremonyOverrides {
  /** The origin the browser would write into clientDataJSON; default the authenticator's. */
  origin?: string;
  /** The RP ID whose hash the authenticator data carries; default the options'. */
  rpId?: string;
  /** The challenge written into clientDataJSON; default the options'. */
  challenge?: string;
  /** authenticatorData flags; default UP | UV (| AT at registration). */
  flags?: number;
  /** The signature counter to answer (authentication); default the credential's next one. */
  counter?: number;
}

export interface RegistrationOptionsLike {
  challenge: string;
  rp: { id?: string; name: string };
  user: { id: string; name: string; displayName: string };
}

export interface AuthenticationOptionsLike {
  challenge: string;
  rpId?: string;
  allowCredentials?: Array<{ id: string }>;
}

export class SoftwareAuthenticator {
  private readonly credentials: Credential[] = [];
  /** The origin this "browser" runs at: written into clientDataJSON. */
  readonly origin: string;
  /**
   * Start counters at zero and never count (as most synced passkeys do), or count from 1 (as a
   * security key does); tests of a regressing counter need the counting kind.
   */
  readonly counting: boolean;

  constructor(origin: string, { counting = true }: { counting?: boolean } = {}) {
    this.origin = origin;
    this.counting = counting;
  }

  /** navigator.credentials.create(): a new discoverable credential, answered as RegistrationResponseJSON. */
  register(options: RegistrationOptionsLike, overrides: CeremonyOverrides = {}) {
    const rpId = overrides.rpId ?? options.rp.id ?? new URL(this.origin).hostname;
    const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
    const credential: Credential = {
      id: randomBytes(16),
      privateKey,
      publicKey,
      rpId,
      userHandle: options.user.id,
      counter: 0,
    };
    this.credentials.push(credential);
    const jwk = publicKey.export({ format: "jwk" });
    const coseKey = new Map<Cbor, Cbor>([
      [1, 2], // kty: EC2
      [3, -7], // alg: ES256
      [-1, 1], // crv: P-256
      [-2, Buffer.from(jwk.x!, "base64url")],
      [-3, Buffer.from(jwk.y!, "base64url")],
    ]);
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(credential.id.length);
    const authData = Buffer.concat([
      sha256(rpId),
      Buffer.from([overrides.flags ?? FLAGS.UP | FLAGS.UV | FLAGS.AT]),
      counterBytes(credential.counter),
      Buffer.alloc(16), // AAGUID: none
      idLength,
      credential.id,
      cbor(coseKey),
    ]);
    const clientDataJSON = this.clientData(
      "webauthn.create",
      overrides.challenge ?? options.challenge,
      overrides.origin,
    );
    const attestationObject = cbor(
      new Map<Cbor, Cbor>([
        ["fmt", "none"],
        ["attStmt", new Map()],
        ["authData", authData],
      ]),
    );
    return {
      id: b64url(credential.id),
      rawId: b64url(credential.id),
      type: "public-key" as const,
      response: {
        clientDataJSON: b64url(clientDataJSON),
        attestationObject: b64url(attestationObject),
        transports: ["internal" as const],
      },
      clientExtensionResults: {},
      authenticatorAttachment: "platform" as const,
    };
  }

  /**
   * navigator.credentials.get(): an assertion by a credential of the RP (the first one allowed, else the
   * newest discoverable one: no email typed), answered as AuthenticationResponseJSON.
   */
  authenticate(options: AuthenticationOptionsLike, overrides: CeremonyOverrides & { credentialId?: string } = {}) {
    const rpId = overrides.rpId ?? options.rpId ?? new URL(this.origin).hostname;
    const wanted = overrides.credentialId ?? options.allowCredentials?.[0]?.id;
    const credential = [...this.credentials]
      .reverse()
      .find((c) => (wanted ? b64url(c.id) === wanted : c.rpId === (options.rpId ?? rpId)));
    if (!credential) throw new Error("this authenticator holds no credential for that relying party");
    if (overrides.counter !== undefined) credential.counter = overrides.counter;
    else if (this.counting) credential.counter += 1;
    const authData = Buffer.concat([
      sha256(rpId),
      Buffer.from([overrides.flags ?? FLAGS.UP | FLAGS.UV]),
      counterBytes(credential.counter),
    ]);
    const clientDataJSON = this.clientData("webauthn.get", overrides.challenge ?? options.challenge, overrides.origin);
    const signature = sign("sha256", Buffer.concat([authData, sha256(clientDataJSON)]), credential.privateKey);
    return {
      id: b64url(credential.id),
      rawId: b64url(credential.id),
      type: "public-key" as const,
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        userHandle: credential.userHandle,
      },
      clientExtensionResults: {},
      authenticatorAttachment: "platform" as const,
    };
  }

  private clientData(type: string, challenge: string, origin = this.origin): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }), "utf8");
  }
}

function counterBytes(counter: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(counter);
  return b;
}

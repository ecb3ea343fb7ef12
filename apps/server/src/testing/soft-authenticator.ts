import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();

/**
 * A software passkey for server tests: an ES256 key pair answering WebAuthn challenges exactly as a
 * platform authenticator with user verification does (attestation "none", flags UP, UV, AT), so the
 * server's real verification (SimpleWebAuthn) runs on real signatures. The browser tests use
 * Chromium's own virtual authenticator instead.
 */
export function createSoftAuthenticator(options: { origin: string; rpId: string; userHandle?: string }) {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const credentialId = randomBytes(16);
  let counter = 0;
  let userHandle = options.userHandle;

  function coseKey(key: KeyObject): Uint8Array {
    const jwk = key.export({ format: 'jwk' });
    return isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(jwk.x!, 'base64url')],
        [-3, Buffer.from(jwk.y!, 'base64url')],
      ]),
    );
  }

  function clientData(type: string, challenge: string, origin = options.origin) {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }

  function authenticatorData(flags: number, attested?: Uint8Array) {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(counter);
    return Buffer.concat([
      sha256(options.rpId),
      Buffer.from([flags]),
      count,
      ...(attested ? [attested] : []),
    ]);
  }

  return {
    credentialId: b64url(credentialId),
    /** The answer to registration options (RegistrationResponseJSON). */
    register(creationOptions: { challenge: string; user?: { id: string } }, origin = options.origin) {
      if (creationOptions.user) userHandle = creationOptions.user.id;
      const length = Buffer.alloc(2);
      length.writeUInt16BE(credentialId.length);
      const attested = Buffer.concat([Buffer.alloc(16), length, credentialId, coseKey(publicKey)]);
      // UP (0x01), UV (0x04), AT (0x40)
      const authData = authenticatorData(0x45, attested);
      const attestationObject = isoCBOR.encode(
        new Map<string, unknown>([
          ['fmt', 'none'],
          ['attStmt', new Map()],
          ['authData', authData],
        ]) as never,
      );
      return {
        id: b64url(credentialId),
        rawId: b64url(credentialId),
        type: 'public-key' as const,
        response: {
          clientDataJSON: b64url(clientData('webauthn.create', creationOptions.challenge, origin)),
          attestationObject: b64url(attestationObject),
          transports: ['internal'],
        },
        clientExtensionResults: {},
        authenticatorAttachment: 'platform',
      };
    },
    /** The answer to authentication options (AuthenticationResponseJSON), user verified. */
    authenticate(requestOptions: { challenge: string }, flags = 0x05) {
      counter += 1;
      const authData = authenticatorData(flags);
      const clientDataJSON = clientData('webauthn.get', requestOptions.challenge);
      const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), privateKey);
      return {
        id: b64url(credentialId),
        rawId: b64url(credentialId),
        type: 'public-key' as const,
        response: {
          clientDataJSON: b64url(clientDataJSON),
          authenticatorData: b64url(authData),
          signature: b64url(signature),
          ...(userHandle ? { userHandle } : {}),
        },
        clientExtensionResults: {},
        authenticatorAttachment: 'platform',
      };
    },
  };
}

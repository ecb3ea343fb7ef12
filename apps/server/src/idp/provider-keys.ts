import { calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK } from 'jose';
import type { Db } from '../db/database.js';
import { getOrCreateSecret, randomSecret } from '../lib/app-secrets.js';

/** Names of the rows in app_secrets. */
export const SIGNING_KEYS_SECRET = 'oidc-signing-jwks';
export const COOKIE_KEYS_SECRET = 'oidc-cookie-keys';
/** HMAC key of the sign-in device cookies (decision 0010). */
export const DEVICE_COOKIE_KEY_SECRET = 'login-device-cookie-key';

/** The algorithm of ID tokens and JWT access tokens (Keycloak's default too). */
export const SIGNING_ALG = 'RS256';

export interface PrivateJwks {
  keys: JWK[];
}

/**
 * Where a rotation of the signing keys stands (stored next to the keys; the provider never sees it):
 * `staged`, a key published at the end of the set that does not sign yet; `retired`, the key that
 * signed before the current one, kept to verify what it signed. Times are ISO 8601.
 */
export interface KeyRotationState {
  staged?: { kid: string; at: string };
  retired?: { kid: string; at: string };
}

/** The stored row: the keys in signing order (the first signs), and the rotation's state. */
export interface StoredJwks extends PrivateJwks {
  rotation?: KeyRotationState;
}

/** A new RSA signing key as a private JWK, identified by its RFC 7638 thumbprint. */
export async function newSigningKey(): Promise<JWK> {
  const { privateKey } = await generateKeyPair(SIGNING_ALG, { modulusLength: 2048, extractable: true });
  const jwk = await exportJWK(privateKey);
  return { ...jwk, kid: await calculateJwkThumbprint(jwk), alg: SIGNING_ALG, use: 'sig' };
}

export function parseJwks(value: string): StoredJwks {
  const parsed = JSON.parse(value) as unknown;
  if (!parsed || typeof parsed !== 'object' || !Array.isArray((parsed as PrivateJwks).keys)) {
    throw new Error(`app_secrets.${SIGNING_KEYS_SECRET} is not a JSON Web Key Set`);
  }
  return parsed as StoredJwks;
}

/**
 * The provider's private signing keys: created once, stored in app_secrets, then read by every
 * instance and every restart (insert … on conflict do nothing, then select, so concurrent first
 * starts agree on one key set). The first key signs; later ones only verify (rotation with an
 * overlap: signing-key-rotation.ts, `npm run keys -- rotate`).
 */
export async function loadSigningKeys(db: Db): Promise<PrivateJwks> {
  const value = await getOrCreateSecret(db, SIGNING_KEYS_SECRET, async () =>
    JSON.stringify({ keys: [await newSigningKey()] }),
  );
  return { keys: parseJwks(value).keys };
}

/** Cookie signing keys (Keygrip order: the first signs, all verify), shared like the signing keys. */
export async function loadCookieKeys(db: Db): Promise<string[]> {
  const value = await getOrCreateSecret(db, COOKIE_KEYS_SECRET, () => JSON.stringify([randomSecret(32)]));
  const keys = JSON.parse(value) as unknown;
  if (
    !Array.isArray(keys) ||
    keys.length === 0 ||
    !keys.every((k) => typeof k === 'string' && k.length >= 32)
  ) {
    throw new Error(
      `app_secrets.${COOKIE_KEYS_SECRET} must be a JSON array of strings of at least 32 characters`,
    );
  }
  return keys as string[];
}

/** The public half of each key (what /certs publishes and the API verifies access tokens with). */
export function publicJwksOf(jwks: PrivateJwks): { keys: JWK[] } {
  return {
    keys: jwks.keys.map(({ kty, kid, alg, use, n, e, crv, x, y }) => {
      const key: Record<string, string> = {};
      for (const [name, value] of Object.entries({ kty, kid, alg, use, n, e, crv, x, y })) {
        if (typeof value === 'string') key[name] = value;
      }
      return key as JWK;
    }),
  };
}

/** Reads the current public keys from the database (sees keys added by other instances). */
export async function loadPublicJwks(db: Db): Promise<{ keys: JWK[] }> {
  const row = await db
    .selectFrom('app_secrets')
    .select('value')
    .where('name', '=', SIGNING_KEYS_SECRET)
    .executeTakeFirstOrThrow();
  return publicJwksOf(parseJwks(row.value));
}

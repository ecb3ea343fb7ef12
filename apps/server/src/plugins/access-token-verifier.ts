import { constants, KeyObject, verify } from 'node:crypto';
import { errors, type JWSHeaderParameters, type JWTPayload } from 'jose';
import { ACCESS_TOKEN_ALGORITHMS, type AccessTokenKeySource } from './access-token-keys.js';

/**
 * What an access token must carry besides the source's issuer and one of ACCESS_TOKEN_ALGORITHMS
 * (RFC 7519 §4.1; the names of jose's jwtVerify options).
 */
export interface AccessTokenRules {
  /** When set, `aud` must be this or a list holding it. */
  audience?: string;
  /** Claims that must be present. */
  requiredClaims: readonly string[];
}

/** RSA keys of at least 2048 bits (RFC 7518 §3.3). */
const rsaOf2048Bits = (key: KeyObject) => (key.asymmetricKeyDetails?.modulusLength ?? 0) >= 2048;

/**
 * How node:crypto checks each of ACCESS_TOKEN_ALGORITHMS' signatures, and the WebCrypto key the key
 * set must give for it.
 */
const SIGNATURES: Record<
  string,
  {
    digest: string | null;
    options?: { padding?: number; saltLength?: number; dsaEncoding?: 'ieee-p1363' };
    /** The CryptoKey's algorithm that jose imports for this `alg` (RFC 7518 §3, RFC 8037). */
    keyAlgorithm: string;
    /** RSA: long enough; EC: the one curve the `alg` names. */
    keyCheck?: (key: KeyObject) => boolean;
  }
> = {
  RS256: {
    digest: 'sha256',
    keyAlgorithm: 'RSASSA-PKCS1-v1_5',
    keyCheck: rsaOf2048Bits,
  },
  PS256: {
    digest: 'sha256',
    options: { padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 },
    keyAlgorithm: 'RSA-PSS',
    keyCheck: rsaOf2048Bits,
  },
  ES256: {
    digest: 'sha256',
    options: { dsaEncoding: 'ieee-p1363' },
    keyAlgorithm: 'ECDSA',
    keyCheck: (key) => key.asymmetricKeyDetails?.namedCurve === 'prime256v1',
  },
  EdDSA: { digest: null, keyAlgorithm: 'Ed25519' },
};

/** The three parts of a compact JWS, each base64url without padding (RFC 7515 §7.1, §2). */
const COMPACT_JWS = /^([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)$/;

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** A JSON object, not an array or null (jose's isObject, for the header and the claims). */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}

function jsonObjectOf(part: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(utf8.decode(Buffer.from(part, 'base64url')));
    return isPlainObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Verifies access tokens as jose's `jwtVerify` does (the same checks, the same jose errors, so a
 * caller tells an invalid token from a failure of its own as before), but checks the signature with
 * node:crypto's synchronous `verify`. jose 6 checks it through WebCrypto, which in Node hands every
 * check to another thread and back: 64–86 µs of CPU per RS256 token on this machine against 29–31 µs,
 * and a third of the main thread's time in a token's first call on an instance (decision 0075,
 * docs/performance.md#sync-signature). The issuer and the keys come from `source`, the keys from
 * jose's key sets as WebCrypto keys, which are turned into node:crypto's once each.
 *
 * Stricter than jose, on purpose, where no access token this service takes is concerned: a header
 * with `crit` or `b64` is refused, so is a signature spelt other than base64url's one way, and a key
 * too short for its algorithm makes the token invalid (jose throws a TypeError, a 500 to the caller).
 */
export function accessTokenVerifier(
  source: AccessTokenKeySource,
  { audience, requiredClaims }: AccessTokenRules,
  nowSeconds: () => number = () => Math.floor(Date.now() / 1000),
): (token: string) => Promise<JWTPayload> {
  /**
   * Each key the key set gives, as node:crypto's, with whether it fits each `alg` (its type, its
   * WebCrypto algorithm, its length or curve): worked out at a key's first token, not at every one.
   * jose's key sets give the same key object for a key every time.
   */
  const prepared = new WeakMap<object, { keyObject: KeyObject; fits: Map<string, boolean> }>();
  const preparedKey = (key: object) => {
    let entry = prepared.get(key);
    if (!entry) {
      const keyObject =
        key instanceof KeyObject ? key : KeyObject.from(key as Parameters<typeof KeyObject.from>[0]);
      entry = { keyObject, fits: new Map() };
      prepared.set(key, entry);
    }
    return entry;
  };
  const keyFits = (key: object, keyObject: KeyObject, signature: (typeof SIGNATURES)[string]) => {
    const cryptoAlgorithm = (key as { algorithm?: { name?: string } }).algorithm?.name;
    return (
      keyObject.type === 'public' &&
      (cryptoAlgorithm === undefined || cryptoAlgorithm === signature.keyAlgorithm) &&
      (!signature.keyCheck || signature.keyCheck(keyObject))
    );
  };

  return async (token) => {
    const parts = COMPACT_JWS.exec(token);
    if (!parts) throw new errors.JWSInvalid('Invalid Compact JWS');
    const [, encodedHeader, encodedPayload, encodedSignature] = parts as unknown as [
      string,
      string,
      string,
      string,
    ];
    const header = jsonObjectOf(encodedHeader);
    if (!header) throw new errors.JWSInvalid('JWS Protected Header is invalid');
    if (Object.hasOwn(header, 'crit') || Object.hasOwn(header, 'b64'))
      throw new errors.JWSInvalid('JWS "crit" and "b64" Header Parameters are not supported');
    const { alg } = header;
    if (typeof alg !== 'string' || !alg)
      throw new errors.JWSInvalid('JWS "alg" (Algorithm) Header Parameter missing or invalid');
    const signature = ACCESS_TOKEN_ALGORITHMS.includes(alg) ? SIGNATURES[alg] : undefined;
    if (!signature)
      throw new errors.JOSEAlgNotAllowed('"alg" (Algorithm) Header Parameter value not allowed');

    // The key set picks the key by the header (kid, alg); it may read or fetch it (access-token-keys).
    const key = await source.keys(header as unknown as JWSHeaderParameters & { alg: string }, {
      protected: encodedHeader,
      payload: encodedPayload,
      signature: encodedSignature,
    });
    const { keyObject, fits } = preparedKey(key as object);
    let fit = fits.get(alg);
    if (fit === undefined) {
      fit = keyFits(key as object, keyObject, signature);
      fits.set(alg, fit);
    }
    if (!fit) throw new errors.JOSENotSupported(`The key cannot verify ${alg} signatures`);
    // Decoded strictly: Buffer skips what cannot be base64url, so a changed spelling of the same bytes
    // must not pass as the same signature.
    const signatureBytes = Buffer.from(encodedSignature, 'base64url');
    if (signatureBytes.toString('base64url') !== encodedSignature)
      throw new errors.JWSInvalid('Failed to base64url decode the signature');
    let valid: boolean;
    try {
      valid = verify(
        signature.digest,
        Buffer.from(`${encodedHeader}.${encodedPayload}`),
        signature.options ? { key: keyObject, ...signature.options } : keyObject,
        signatureBytes,
      );
    } catch (cause) {
      throw new errors.JWSSignatureVerificationFailed(undefined, { cause });
    }
    if (!valid) throw new errors.JWSSignatureVerificationFailed();

    const claims = jsonObjectOf(encodedPayload);
    if (!claims) throw new errors.JWTInvalid('JWT Claims Set must be a top-level JSON object');
    return checkClaims(claims, { issuer: source.issuer(), audience, requiredClaims }, nowSeconds());
  };
}

/** jose's validateClaimsSet for the rules above, with no clock tolerance. */
function checkClaims(
  claims: Record<string, unknown>,
  rules: AccessTokenRules & { issuer: string },
  now: number,
): JWTPayload {
  const failed = (message: string, claim: string, reason = 'check_failed') =>
    new errors.JWTClaimValidationFailed(message, claims, claim, reason);
  const required = [...rules.requiredClaims, ...(rules.audience === undefined ? [] : ['aud']), 'iss'];
  for (const claim of required)
    if (!Object.hasOwn(claims, claim)) throw failed(`missing required "${claim}" claim`, claim, 'missing');
  if (claims.iss !== rules.issuer) throw failed('unexpected "iss" claim value', 'iss');
  if (rules.audience !== undefined) {
    const { aud } = claims;
    const holds =
      typeof aud === 'string' ? aud === rules.audience : Array.isArray(aud) && aud.includes(rules.audience);
    if (!holds) throw failed('unexpected "aud" claim value', 'aud');
  }
  for (const claim of ['iat', 'nbf', 'exp'])
    if (claims[claim] !== undefined && typeof claims[claim] !== 'number')
      throw failed(`"${claim}" claim must be a number`, claim, 'invalid');
  if (typeof claims.nbf === 'number' && claims.nbf > now)
    throw failed('"nbf" claim timestamp check failed', 'nbf');
  if (typeof claims.exp === 'number' && claims.exp <= now)
    throw new errors.JWTExpired('"exp" claim timestamp check failed', claims, 'exp', 'check_failed');
  return claims as JWTPayload;
}

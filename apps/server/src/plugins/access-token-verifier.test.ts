import { generateKeyPairSync } from 'node:crypto';
import {
  base64url,
  createLocalJWKSet,
  errors,
  exportJWK,
  generateKeyPair,
  jwtVerify,
  SignJWT,
  type CryptoKey,
  type JWK,
  type JWTPayload,
} from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { ACCESS_TOKEN_ALGORITHMS, isTokenFault } from './access-token-keys.js';
import { accessTokenVerifier, type AccessTokenRules } from './access-token-verifier.js';

// The verifier must take and refuse exactly what jose's jwtVerify (the reference it replaces for speed,
// decision 0075) takes and refuses, with the same error classes, for every token a caller can send.
const issuer = 'https://roadpass.example/auth/realms/customer';
const audience = 'roadpass-api';
const rules: AccessTokenRules = { audience, requiredClaims: ['sub', 'exp', 'iat'] };
const now = () => Math.floor(Date.now() / 1000);

/**
 * What a caller can tell apart (customer-auth, service-auth): taken with these claims, or refused as
 * an invalid token (a jose error: 401), as an expired one (its own message), or as the server's own
 * failure (anything else: 500).
 */
type Outcome = { ok: true; payload: JWTPayload } | { ok: false; tokenFault: boolean; expired: boolean };
const outcome = (promise: Promise<JWTPayload>): Promise<Outcome> =>
  promise.then(
    (payload) => ({ ok: true as const, payload }),
    (error: unknown) => ({
      ok: false as const,
      tokenFault: isTokenFault(error),
      expired: error instanceof errors.JWTExpired,
    }),
  );

describe('accessTokenVerifier against jose jwtVerify', () => {
  const signers: Record<string, { key: CryptoKey; kid: string }> = {};
  let keys: ReturnType<typeof createLocalJWKSet>;
  let verify: (token: string) => Promise<JWTPayload>;
  const reference = (token: string) =>
    jwtVerify(token, keys, {
      issuer,
      audience,
      algorithms: ACCESS_TOKEN_ALGORITHMS,
      requiredClaims: [...rules.requiredClaims],
    }).then((r) => r.payload);

  beforeAll(async () => {
    const jwks: JWK[] = [];
    for (const alg of ['RS256', 'PS256', 'ES256', 'EdDSA']) {
      const { publicKey, privateKey } = await generateKeyPair(alg, { extractable: true });
      const kid = `key-${alg}`;
      jwks.push({ ...(await exportJWK(publicKey)), kid, alg, use: 'sig' });
      signers[alg] = { key: privateKey, kid };
    }
    // An RSA key too short for RS256 (RFC 7518 §3.3 asks for 2048 bits).
    const short = generateKeyPairSync('rsa', { modulusLength: 1024 });
    jwks.push({ ...(await exportJWK(short.publicKey)), kid: 'short', alg: 'RS256' });
    keys = createLocalJWKSet({ keys: jwks });
    verify = accessTokenVerifier({ keys, issuer: () => issuer }, rules);
  });

  const claims = (): JWTPayload => ({
    iss: issuer,
    aud: audience,
    sub: '5b1f0c1e-6c39-4a53-9d63-4f3e0b6a2c11',
    iat: now() - 10,
    exp: now() + 300,
    sid: 'session-1',
    legal_entity: 3,
  });
  const sign = (payload: JWTPayload, alg = 'RS256', header: Record<string, unknown> = {}) =>
    new SignJWT(payload)
      .setProtectedHeader({ alg, kid: signers[alg]!.kid, typ: 'at+jwt', ...header })
      .sign(signers[alg]!.key);
  const part = (value: unknown) => base64url.encode(JSON.stringify(value));
  const withParts = (token: string, change: (parts: string[]) => string[]) =>
    change(token.split('.')).join('.');

  async function expectSameAsJose(token: string, expected: 'taken' | 'refused') {
    const [ours, jose] = await Promise.all([outcome(verify(token)), outcome(reference(token))]);
    expect(ours).toEqual(jose);
    expect(ours.ok).toBe(expected === 'taken');
    return ours;
  }

  it.each(['RS256', 'PS256', 'ES256', 'EdDSA'])(
    'takes a valid %s token with the claims jose gives',
    async (alg) => {
      const ours = await expectSameAsJose(await sign(claims(), alg), 'taken');
      expect(ours).toMatchObject({
        ok: true,
        payload: { sub: claims().sub, sid: 'session-1', legal_entity: 3 },
      });
    },
  );

  it('takes an audience list that holds the audience', async () => {
    await expectSameAsJose(await sign({ ...claims(), aud: ['account', audience] }), 'taken');
  });

  const refusedClaims: [string, () => JWTPayload][] = [
    ['expired', () => ({ ...claims(), exp: now() })],
    ['not valid yet', () => ({ ...claims(), nbf: now() + 60 })],
    ['another issuer', () => ({ ...claims(), iss: 'https://attacker.example/realms/customer' })],
    ['another audience', () => ({ ...claims(), aud: 'account' })],
    ['an audience list without it', () => ({ ...claims(), aud: ['account', 'admin'] })],
    ['no subject', () => ({ ...claims(), sub: undefined })],
    ['no expiry', () => ({ ...claims(), exp: undefined })],
    ['no issued-at', () => ({ ...claims(), iat: undefined })],
    ['no issuer', () => ({ ...claims(), iss: undefined })],
    ['no audience', () => ({ ...claims(), aud: undefined })],
    ['an expiry as text', () => ({ ...claims(), exp: String(now() + 300) as unknown as number })],
    ['an issued-at as text', () => ({ ...claims(), iat: 'yesterday' as unknown as number })],
    ['a not-before as text', () => ({ ...claims(), nbf: '0' as unknown as number })],
  ];
  it.each(refusedClaims)('refuses a signed token with %s, as jose does', async (_, make) => {
    const payload = JSON.parse(JSON.stringify(make())) as JWTPayload;
    await expectSameAsJose(await sign(payload), 'refused');
  });

  it('refuses tampered, unsigned and malformed tokens, as jose does', async () => {
    const good = await sign(claims());
    const [header, payload, signature] = good.split('.') as [string, string, string];
    const other = await sign({ ...claims(), sub: 'someone-else' });
    const cases = [
      // another customer's claims under this token's signature
      withParts(good, ([h, , s]) => [h!, other.split('.')[1]!, s!]),
      // alg none, and HS256 with the RSA key's public JWK as the secret (algorithm confusion)
      `${part({ alg: 'none', kid: signers.RS256!.kid })}.${payload}.`,
      `${part({ alg: 'none', kid: signers.RS256!.kid })}.${payload}.${signature}`,
      `${part({ alg: 'HS256', kid: signers.RS256!.kid })}.${payload}.${signature}`,
      // an algorithm not taken, and one that does not fit its key
      `${part({ alg: 'RS384', kid: signers.RS256!.kid })}.${payload}.${signature}`,
      `${part({ alg: 'ES256', kid: signers.RS256!.kid })}.${payload}.${signature}`,
      `${part({ alg: 'PS256', kid: signers.RS256!.kid })}.${payload}.${signature}`,
      // a key this service does not know
      `${part({ alg: 'RS256', kid: 'unknown' })}.${payload}.${signature}`,
      // shapes
      `${header}.${payload}`,
      `${header}.${payload}.${signature}.${signature}`,
      `${header}.${payload}.`,
      `.${payload}.${signature}`,
      `${header}..${signature}`,
      `${header}.${payload}.${signature}=`,
      `${header}.${payload}.${signature.slice(0, -2)}`,
      `${header}.${payload}.${signature}A`,
      `${part('RS256')}.${payload}.${signature}`,
      `${part([{ alg: 'RS256' }])}.${payload}.${signature}`,
      `${base64url.encode('{"alg":')}.${payload}.${signature}`,
      `${header}.${base64url.encode('not json')}.${signature}`,
      '',
      'a.b.c',
      'Bearer',
    ];
    for (const token of cases) await expectSameAsJose(token, 'refused');
    // Signed, and the claims are no object: refused, as jose refuses them.
    for (const body of ['[1,2]', '"text"', 'null', '{"sub":'])
      await expectSameAsJose(await signRaw(body), 'refused');
  });

  /** A correctly signed RS256 token whose payload is `body` and whose header is `header`, whatever they are. */
  async function signRaw(body: string, header: Record<string, unknown> = {}): Promise<string> {
    const input = `${part({ alg: 'RS256', kid: signers.RS256!.kid, ...header })}.${base64url.encode(body)}`;
    const { subtle } = globalThis.crypto;
    const signature = new Uint8Array(
      await subtle.sign('RSASSA-PKCS1-v1_5', signers.RS256!.key, new TextEncoder().encode(input)),
    );
    return `${input}.${base64url.encode(signature)}`;
  }

  it('agrees with jose on every one-character change of a valid token', async () => {
    const good = await sign(claims(), 'ES256');
    const alphabet = 'A_-x0.=';
    let taken = 0;
    for (let i = 0; i < good.length; i += 3) {
      const changed = good.slice(0, i) + alphabet[i % alphabet.length] + good.slice(i + 1);
      if (changed === good) continue;
      const [ours, jose] = await Promise.all([outcome(verify(changed)), outcome(reference(changed))]);
      expect({ i, ours }).toEqual({ i, ours: jose });
      if (ours.ok) taken += 1;
    }
    // Only a change in the last character's unused bits could leave the same bytes; none is taken.
    expect(taken).toBe(0);
  });

  it('refuses what jose would take but this service never issues: crit and b64 headers, short RSA keys', async () => {
    const critical = await signRaw(JSON.stringify(claims()), { crit: ['b64'], b64: true });
    expect(await outcome(reference(critical))).toMatchObject({ ok: true });
    await expect(verify(critical)).rejects.toThrow(/crit/);
    await expect(verify(await signRaw(JSON.stringify(claims()), { b64: true }))).rejects.toThrow(/b64/);
    const shortKeyToken = `${part({ alg: 'RS256', kid: 'short' })}.${part(claims())}.${'A'.repeat(171)}`;
    await expect(verify(shortKeyToken)).rejects.toThrow(/cannot verify RS256/);
  });
});

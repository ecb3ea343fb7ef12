import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalJWKSet, jwtVerify } from 'jose';
import { createTestApp } from '../testing/test-app.js';
import { createTestDatabase, type TestDatabase } from '../testing/test-database.js';
import {
  authorizationRequest,
  browse,
  providerEndpoints,
  refresh,
  signInWithSession,
} from '../testing/sign-in.js';
import { migrateToLatest } from '../db/migrate.js';
import { COOKIE_KEYS_SECRET, loadCookieKeys, loadSigningKeys, SIGNING_KEYS_SECRET } from './provider-keys.js';

const DEMO_NL = { email: 'demo.nl@example.com', password: 'Demo-2026!' };

describe('keys and sessions across restarts and instances', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database?.drop());

  it('a second instance on the same database uses the same keys and honours the first one’s tokens and sessions', async () => {
    const a = await createTestApp({}, database.db);
    const { tokens, jar } = await signInWithSession(a.app, DEMO_NL);
    const keysOfA = await a.app.identityProvider.publicJwks();
    await a.close();

    const b = await createTestApp({}, database.db);
    try {
      expect(await b.app.identityProvider.publicJwks()).toEqual(keysOfA);
      const secrets = await database.db
        .selectFrom('app_secrets')
        .select('name')
        .where('name', 'in', [SIGNING_KEYS_SECRET, COOKIE_KEYS_SECRET])
        .execute();
      expect(secrets).toHaveLength(2);

      // B verifies A's access token and refreshes A's refresh token.
      const verified = await jwtVerify(
        tokens.accessToken,
        createLocalJWKSet(await b.app.identityProvider.publicJwks()),
        {
          issuer: b.app.identityProvider.issuer,
          audience: 'urn:roadpass:customer-api',
        },
      );
      expect(verified.payload.legal_entity).toBe(1);
      const refreshed = await refresh(b.app, tokens.refreshToken);
      expect(refreshed.ok).toBe(true);

      // A's session cookie is still good on B: no password asked.
      const again = await browse(b.app, jar, authorizationRequest(b.app).url);
      expect(again.statusCode).toBe(303);
      expect(again.headers.location).toMatch(new RegExp(`^${providerEndpoints(b.app).redirectUri}\\?code=`));
    } finally {
      await b.close();
    }
  });
});

describe('key storage', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
    await migrateToLatest(database.db);
  });
  afterAll(() => database?.drop());

  it('creates one RS256 signing key and one cookie key set, whoever asks first', async () => {
    const [first, second] = await Promise.all([loadSigningKeys(database.db), loadSigningKeys(database.db)]);
    expect(first).toEqual(second);
    expect(first.keys).toHaveLength(1);
    expect(first.keys[0]).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig' });
    expect(first.keys[0]!.d).toBeTruthy();
    expect(first.keys[0]!.kid).toMatch(/^[\w-]{43}$/);

    const [cookiesA, cookiesB] = await Promise.all([
      loadCookieKeys(database.db),
      loadCookieKeys(database.db),
    ]);
    expect(cookiesA).toEqual(cookiesB);
    expect(cookiesA[0]!.length).toBeGreaterThanOrEqual(32);
  });
});

import { createServer, connect, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiErrorCodes, apiPaths } from '@roadpass/contracts';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { createTestDatabase, testDbTarget, type TestDatabase } from '../testing/test-database.js';
import { createTestCustomer, TEST_CUSTOMER_PASSWORD } from '../testing/loyalty-members.js';
import { refresh, signIn, type TokenSet } from '../testing/sign-in.js';
import { openDatabase } from './database.js';
import { isDatabaseUnavailable } from './database-unavailable.js';
import { migrateToLatest } from './migrate.js';

// A database that cannot be reached for a moment is answered 503 with Retry-After, not 500
// (docs/operations.md#what-to-watch): the call can be made again, and the dashboard tells an outage
// from a bug.

describe('isDatabaseUnavailable', () => {
  it('knows a lost or refused connection, a server shutting down and too many connections', () => {
    for (const code of [
      'ECONNREFUSED',
      'ECONNRESET',
      'ETIMEDOUT',
      '08006',
      '08001',
      '57P01',
      '57P03',
      '53300',
    ])
      expect(isDatabaseUnavailable(Object.assign(new Error('x'), { code })), code).toBe(true);
    for (const message of [
      'Connection terminated unexpectedly',
      'timeout exceeded when trying to connect',
      "the embedded database's worker thread exited (code 1)",
    ])
      expect(isDatabaseUnavailable(new Error(message)), message).toBe(true);
  });

  it('leaves a statement that is wrong, a broken rule and anything else a 500', () => {
    for (const code of ['42601', '23505', '22P02', '40P01', 'ERR_ASSERTION'])
      expect(isDatabaseUnavailable(Object.assign(new Error('x'), { code })), code).toBe(false);
    expect(isDatabaseUnavailable(new TypeError('cannot read properties of undefined'))).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
    expect(isDatabaseUnavailable('ECONNREFUSED')).toBe(false);
  });
});

/** A TCP relay to PostgreSQL that can be cut (every connection dropped, new ones refused) and restored. */
async function cuttableRelay(target: URL) {
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let port = 0;
  const open = () =>
    new Promise<void>((resolve) => {
      if (server?.listening) return resolve();
      server = createServer((client) => {
        const upstream = connect(Number(target.port || 5432), target.hostname);
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.on('close', () => sockets.delete(socket));
          socket.on('error', () => undefined);
        }
        client.pipe(upstream).pipe(client);
      });
      server.listen(port, '127.0.0.1', () => {
        port = (server!.address() as { port: number }).port;
        resolve();
      });
    });
  await open();
  return {
    url(): string {
      const url = new URL(target);
      url.hostname = '127.0.0.1';
      url.port = String(port);
      return url.toString();
    },
    async cut(): Promise<void> {
      const closed = new Promise((resolve) => server!.close(resolve));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
    restore: open,
  };
}

if (testDbTarget() === 'postgres')
  describe('a PostgreSQL that cannot be reached for a moment', () => {
    let database: TestDatabase;
    let relay: Awaited<ReturnType<typeof cuttableRelay>>;
    let t: TestApp;
    let tokens: TokenSet;
    beforeAll(async () => {
      database = await createTestDatabase();
      relay = await cuttableRelay(new URL(database.url!));
      const db = await openDatabase({ databaseUrl: relay.url(), dataDir: '', poolSize: 4 });
      await migrateToLatest(db);
      t = await createTestApp({ rateLimitPerAddress: 0, rateLimitPerCustomer: 0 }, db);
      const customer = await createTestCustomer(t.db, { member: false });
      tokens = await signIn(t.app, { email: customer.email, password: TEST_CUSTOMER_PASSWORD });
    });
    afterAll(async () => {
      await relay?.restore();
      await t?.close();
      await t?.db.destroy();
      await database?.drop();
    });

    const sessions = () =>
      t.app.inject({ url: apiPaths.sessions, headers: { authorization: `Bearer ${tokens.accessToken}` } });

    it('answers API calls 503 with Retry-After while it is gone, and 200 again once it is back', async () => {
      expect((await sessions()).statusCode).toBe(200);
      await relay.cut();
      const res = await sessions();
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe('2');
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.json()).toEqual({
        status: 503,
        code: apiErrorCodes.unavailable,
        message: 'The service is unavailable for a moment; try again',
      });

      // The identity provider's token endpoint says the same in OAuth's words.
      const renewal = await refresh(t.app, tokens.refreshToken);
      expect(renewal).toEqual({
        ok: false,
        status: 503,
        error: 'temporarily_unavailable',
        errorDescription: 'the service is unavailable for a moment; try again',
      });

      await relay.restore();
      expect((await sessions()).statusCode).toBe(200);
      const renewed = await refresh(t.app, tokens.refreshToken);
      expect(renewed.ok).toBe(true);
    });
  });

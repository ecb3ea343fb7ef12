import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  apiPaths,
  CSRF_HEADER,
  type LoyaltyEventBatchResult,
  type LoyaltyTierDetails,
} from '@roadpass/contracts';
import { httpSignIn } from '../../../scripts/http-sign-in.mjs';
import { createTestDatabase, testDbTarget, type TestDatabase } from './testing/test-database.js';
import { freePort, serviceTokenOf, startServer, type ServerProcess } from './testing/server-process.js';

// Issue 10, the project's own checks, on real server processes (the built server):
// - crash safety: kill -9 while points are being awarded, restart, resend everything: no
//   acknowledged event is lost, none is counted twice;
// - two instances on one PostgreSQL started together, then one session used across both.
// Each runs on the storage of this suite's project: embedded PGlite, or the PostgreSQL server.

const running: ServerProcess[] = [];
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.stop()));
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** Storage for the servers: a fresh PGlite folder, or a fresh database on the PostgreSQL server. */
async function storage(): Promise<Record<string, string>> {
  if (testDbTarget() === 'pglite') {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'roadpass-process-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    return { DATA_DIR: dataDir, DATABASE_URL: '' };
  }
  const database: TestDatabase = await createTestDatabase();
  await database.db.destroy();
  cleanups.push(() => database.drop());
  return { DATABASE_URL: database.url!, DATABASE_POOL_SIZE: '5' };
}

async function start(env: Record<string, string>, port?: number): Promise<ServerProcess> {
  const server = await startServer(env, port);
  running.push(server);
  return server;
}

const BATCH = 25;
const batchOf = (customerId: string, n: number) => ({
  events: Array.from({ length: BATCH }, (_, i) => ({
    sourceId: `crash-${n}-${i}`,
    customerId,
    type: 'rental-completed' as const,
    points: 1,
  })),
});

async function sendBatch(server: ServerProcess, token: string, body: object) {
  const res = await fetch(`${server.origin}${apiPaths.internalLoyaltyEvents}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (res.status !== 200) throw new Error(`batch answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as LoyaltyEventBatchResult;
}

async function pointsOf(server: ServerProcess, email: string): Promise<{ uuid: string; points: number }> {
  const { access_token: token } = await httpSignIn(server.origin, email, 'Demo-2026!');
  const uuid = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).sub as string;
  const res = await fetch(`${server.origin}${apiPaths.loyaltyTierDetails(uuid)}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return { uuid, points: ((await res.json()) as LoyaltyTierDetails).points };
}

/**
 * These tests start whole server processes (each opens its database and runs migrations): 10-15 s a
 * start on a loaded two-core machine, where the suite's 30 s default failed the two-instance test.
 */
const WHOLE_PROCESS_TIMEOUT = 120_000;

describe('kill -9 while points are awarded', () => {
  it(
    'loses no acknowledged event and counts none twice after a restart and a resend',
    async () => {
      const env = await storage();
      let server = await start(env);
      const member = await pointsOf(server, 'demo.it@example.com');
      let token = await serviceTokenOf(server);

      // Batches back to back; the process is killed while one is in flight.
      const acknowledged: number[] = [];
      let sent = 0;
      const killAfterMs = 400;
      const started = Date.now();
      let killed = false;
      const killer = (async () => {
        await new Promise((r) => setTimeout(r, killAfterMs));
        // On a loaded machine the first batch may take longer than that: kill once one is acknowledged,
        // while the next is in flight.
        while (acknowledged.length === 0 && Date.now() - started < 60_000)
          await new Promise((r) => setTimeout(r, 5));
        killed = true;
        await server.kill9();
      })();
      while (!killed || Date.now() - started < killAfterMs) {
        const n = sent;
        sent += 1;
        try {
          await sendBatch(server, token, batchOf(member.uuid, n));
          acknowledged.push(n);
        } catch {
          break;
        }
      }
      await killer;
      running.splice(running.indexOf(server), 1);
      expect(acknowledged.length).toBeGreaterThan(0);

      // Restart on the same storage; resend every batch, the unacknowledged one too.
      server = await start(env);
      token = await serviceTokenOf(server);
      let recordedOnResend = 0;
      for (let n = 0; n < sent; n += 1) {
        const result = await sendBatch(server, token, batchOf(member.uuid, n));
        if (acknowledged.includes(n)) {
          // Acknowledged before the crash: every event is already there.
          expect(result, `batch ${n}`).toMatchObject({ recorded: 0, duplicates: BATCH });
        }
        recordedOnResend += result.recorded;
      }
      expect(recordedOnResend).toBeLessThanOrEqual((sent - acknowledged.length) * BATCH);

      // Every event exactly once: one point each.
      expect((await pointsOf(server, 'demo.it@example.com')).points).toBe(member.points + sent * BATCH);
    },
    WHOLE_PROCESS_TIMEOUT,
  );
});

describe('two instances on one database', () => {
  const embedded = testDbTarget() === 'pglite';
  it(
    embedded
      ? 'on embedded PGlite: a second instance on the same folder refuses to start, saying why'
      : 'start together, and one sign-in session works across both',
    async () => {
      if (embedded) {
        // Embedded PGlite belongs to one process: a second instance on its folder must refuse.
        const env = await storage();
        await start(env);
        await expect(startServer(env)).rejects.toThrow(/in use by the server/);
        return;
      }
      // Behind one load balancer both instances have the same public address (here: A's).
      const [portA, portB] = [await freePort(), await freePort()];
      const env = { ...(await storage()), PUBLIC_URL: `http://127.0.0.1:${portA}` };
      const [a, b] = await Promise.all([start(env, portA), start(env, portB)]);

      const tokens = await httpSignIn(a.origin, 'demo.es@example.com', 'Demo-2026!');
      const onB = await fetch(`${b.origin}${apiPaths.loginStatus}`, {
        headers: { authorization: `Bearer ${tokens.access_token}` },
      });
      expect(onB.status, `${await onB.clone().text()}\n${b.output()}`).toBe(200);
      const csrf = onB.headers.get(CSRF_HEADER)!;

      // The refresh token from A renews at B; the anti-forgery token from B is accepted by A.
      const refreshed = await fetch(`${b.origin}/auth/realms/customer/protocol/openid-connect/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'refresh_token',
          refresh_token: tokens.refresh_token,
          client_id: 'portal-client',
        }),
      });
      expect(refreshed.status).toBe(200);
      const { access_token: renewed } = (await refreshed.json()) as { access_token: string };
      const saved = await fetch(`${a.origin}${apiPaths.personalData}`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${renewed}`,
          [CSRF_HEADER]: csrf,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ language: 'en_ES' }),
      });
      expect(saved.status).toBeLessThan(300);
      const status = await fetch(`${b.origin}${apiPaths.loginStatus}`, {
        headers: { authorization: `Bearer ${renewed}` },
      });
      expect(((await status.json()) as { user: { language: string } }).user.language).toBe('en_ES');
    },
    WHOLE_PROCESS_TIMEOUT,
  );
});

import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import type { FastifyInstance } from 'fastify';
import { apiPaths } from '@roadpass/contracts';
import { buildApp } from './app.js';
import { createTestApp, testConfig, type TestApp } from './testing/test-app.js';
import { createTestCustomer } from './testing/loyalty-members.js';
import { serviceToken } from './testing/service-token.js';
import { browse, openLoginPage } from './testing/sign-in.js';

// Issue 21 §2: with REDIS_URL the event batch lane's queue (LOYALTY_BATCH_QUEUE) is counted across the
// fleet, and the sign-in throttle holds across it too (its counts are in the database, decision 0010);
// an instance whose Redis goes away keeps serving with its own counts and says so.

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

/** A Redis of the test's own, that it can stop and start again on the same port. */
async function ownRedis() {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async () => {
    child = spawn('redis-server', ['--port', String(port), '--save', '', '--appendonly', 'no'], {
      stdio: 'ignore',
    });
    const probe = new Redis(port, '127.0.0.1', { lazyConnect: true, retryStrategy: () => 50 });
    probe.on('error', () => undefined);
    await probe.connect().catch(() => undefined);
    await expect.poll(() => probe.status, { timeout: 10_000 }).toBe('ready');
    probe.disconnect();
  };
  const stop = async () => {
    const c = child;
    if (!c || c.exitCode !== null || c.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      c.once('exit', () => resolve());
      c.kill('SIGKILL');
    });
  };
  await start();
  return { url: `redis://127.0.0.1:${port}`, start, stop };
}

/** Batches waiting in an instance's lane, as its metrics say. */
async function waitingIn(app: FastifyInstance): Promise<number> {
  const text = (await app.inject({ url: '/metrics' })).body;
  return Number(/^roadpass_loyalty_batch_lane_waiting (\d+)$/m.exec(text)?.[1]);
}

const prefix = () => `roadpass-test-${randomBytes(6).toString('hex')}:`;

describe('the event batch lane across the fleet', { timeout: 120_000 }, () => {
  const opened: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const o of opened.reverse()) await o.close();
    opened.length = 0;
  });

  /** Two instances on one database and one Redis; a batch rests its lane 99 times as long as it ran. */
  async function twoInstances(redisUrl: string | undefined, logs?: string[]) {
    const settings = {
      loyaltyBatchQueue: 1,
      loyaltyBatchSharePercent: 1,
      redisUrl,
      redisKeyPrefix: prefix(),
    };
    const a: TestApp = await createTestApp(settings);
    opened.push(a);
    // B logs at info, as production does by default: the return of Redis is an info line.
    const b = await buildApp(testConfig({ ...settings, logLevel: 'info' }), {
      db: a.db,
      ...(logs ? { logStream: { write: (line: string) => void logs.push(line) } } : {}),
    });
    opened.push(b);
    await b.ready();
    const token = await serviceToken(a.app, a.db, a.config);
    const member = await createTestCustomer(a.db);
    let n = 0;
    const send = (app: FastifyInstance) => {
      n += 1;
      const events = Array.from({ length: 50 }, (_, i) => ({
        sourceId: `lane-${n}-${i}`,
        customerId: member.id,
        type: 'rental-completed' as const,
        points: 1,
      }));
      return app.inject({
        method: 'POST',
        url: apiPaths.internalLoyaltyEvents,
        headers: { authorization: `Bearer ${token}` },
        payload: { events },
      });
    };
    return { a: a.app, b, send, key: `${settings.redisKeyPrefix}loyalty-batch-lane:waiting` };
  }

  it('lets LOYALTY_BATCH_QUEUE batches wait on all instances together, not on each', async () => {
    const { a, b, send, key } = await twoInstances('redis://127.0.0.1:6379');
    const redis = new Redis('redis://127.0.0.1:6379');
    try {
      // A runs a batch and rests; the next batch sent to A waits there, in the fleet's one place.
      expect((await send(a)).statusCode).toBe(200);
      const waitingOnA = send(a);
      await expect.poll(() => waitingIn(a)).toBe(1);
      expect(await redis.zcard(key)).toBe(1);
      // B's lane is idle: a batch there does not wait, it runs.
      expect((await send(b)).statusCode).toBe(200);
      // The next one would wait on B, but the fleet's waiting place is taken (on A).
      const refused = await send(b);
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toMatchObject({ violations: [{ field: 'events', rule: 'batchQueue' }] });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      // The batch waiting on A gets its turn, and gives its place back.
      expect((await waitingOnA).statusCode).toBe(200);
      expect(await redis.zcard(key)).toBe(0);
    } finally {
      redis.disconnect();
    }
  });

  it('without Redis, lets each instance count its own waiting batches (as before)', async () => {
    const { a, b, send } = await twoInstances(undefined);
    expect((await send(a)).statusCode).toBe(200);
    const waitingOnA = send(a);
    await expect.poll(() => waitingIn(a)).toBe(1);
    expect((await send(b)).statusCode).toBe(200);
    const waitingOnB = send(b);
    await expect.poll(() => waitingIn(b)).toBe(1);
    // One more on either instance is refused: each has its own one place.
    expect((await send(b)).statusCode).toBe(429);
    expect([(await waitingOnA).statusCode, (await waitingOnB).statusCode]).toEqual([200, 200]);
  });

  it('keeps taking batches with its own count when Redis stops, logs it once, and logs its return', async () => {
    const redis = await ownRedis();
    opened.push({ close: redis.stop });
    const logs: string[] = [];
    const { a, b, send } = await twoInstances(redis.url, logs);
    const warnings = () => logs.filter((line) => line.includes('"level":40')).join('');
    expect((await send(a)).statusCode).toBe(200);
    const waitingOnA = send(a);
    await expect.poll(() => waitingIn(a)).toBe(1);
    expect((await send(b)).statusCode).toBe(200);

    await redis.stop();
    await expect.poll(() => logs.join(''), { timeout: 10_000 }).toMatch(/Redis unreachable: each instance/);
    // B can no longer see A's waiting batch: its own lane has room for one, and it takes it.
    const waitingOnB = send(b);
    await expect.poll(() => waitingIn(b)).toBe(1);
    expect((await send(b)).statusCode).toBe(429);
    expect([(await waitingOnA).statusCode, (await waitingOnB).statusCode]).toEqual([200, 200]);
    // Once per loss, not once per reconnection attempt or per batch.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(warnings().match(/Redis/g)).toHaveLength(1);

    await redis.start();
    await expect.poll(() => logs.join(''), { timeout: 15_000 }).toMatch(/Redis reachable again/);
  });
});

describe('the sign-in throttle across the fleet', { timeout: 120_000 }, () => {
  let a: TestApp | undefined;
  let b: FastifyInstance | undefined;
  afterEach(async () => {
    await b?.close();
    await a?.close();
  });

  it('refuses on one instance the guesses made on another, with Redis gone or not', async () => {
    const redis = await ownRedis();
    try {
      const settings = { redisUrl: redis.url, redisKeyPrefix: prefix() };
      a = await createTestApp(settings);
      b = await buildApp(testConfig(settings), { db: a.db });
      await b.ready();
      await redis.stop();
      const attempt = async (app: FastifyInstance, password: string) => {
        const { jar, loginUrl } = await openLoginPage(app);
        return browse(app, jar, loginUrl, { email: 'demo.nl@example.com', password });
      };
      // Five guesses through each instance: the account's 10 guesses an hour for unknown clients.
      for (let i = 0; i < 5; i += 1) expect((await attempt(a.app, `guess-a-${i}`)).statusCode).toBe(401);
      for (let i = 0; i < 5; i += 1) expect((await attempt(b, `guess-b-${i}`)).statusCode).toBe(401);
      expect((await attempt(a.app, 'Demo-2026!')).statusCode).toBe(429);
      expect((await attempt(b, 'Demo-2026!')).statusCode).toBe(429);
    } finally {
      await redis.stop();
    }
  });
});

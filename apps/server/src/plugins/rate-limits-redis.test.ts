import { randomBytes } from 'node:crypto';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.js';
import { createTestApp, testConfig, type TestApp } from '../testing/test-app.js';

const REDIS = 'redis://127.0.0.1:6379';
// A limited path that answers 200 (the identity provider's discovery document).
const discovery = '/auth/realms/customer/.well-known/openid-configuration';
const get = (app: FastifyInstance) => app.inject({ url: discovery, remoteAddress: '10.9.8.7' });

/** A TCP proxy in front of Redis that the test can cut, as a network loss would. */
async function redisProxy(): Promise<{ url: string; cut(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(6379, '127.0.0.1');
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => undefined);
      s.on('close', () => sockets.delete(s));
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `redis://127.0.0.1:${port}`,
    cut: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      }),
  };
}

// Issue 21 §2: with REDIS_URL the rate limits hold across the fleet; without Redis each instance
// still counts on its own, and says so in the log.
describe('rate limits shared through Redis', { timeout: 120_000 }, () => {
  const opened: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const o of opened.reverse()) await o.close();
    opened.length = 0;
  });
  const prefix = () => `roadpass-test-${randomBytes(6).toString('hex')}:`;

  it('two instances share one budget per address', async () => {
    const shared = {
      rateLimitPerAddress: 5,
      rateLimitPerCustomer: 0,
      redisUrl: REDIS,
      redisKeyPrefix: prefix(),
    };
    const a: TestApp = await createTestApp(shared);
    opened.push(a);
    const b = await buildApp(testConfig(shared), { db: a.db });
    opened.push(b);
    await b.ready();

    for (let i = 0; i < 3; i += 1) expect((await get(a.app)).statusCode).toBe(200);
    for (let i = 0; i < 2; i += 1) expect((await get(b)).statusCode).toBe(200);
    // The sixth request of this address is over the budget, whichever instance it reaches.
    expect((await get(b)).statusCode).toBe(429);
    expect((await get(a.app)).statusCode).toBe(429);
  });

  it('keeps serving with its own counts when Redis drops, and logs it', async () => {
    const proxy = await redisProxy();
    const lines: string[] = [];
    const t = await createTestApp(
      { rateLimitPerAddress: 3, rateLimitPerCustomer: 0, redisUrl: proxy.url, redisKeyPrefix: prefix() },
      undefined,
      { write: (line) => void lines.push(line) },
    );
    opened.push(t);
    expect((await get(t.app)).statusCode).toBe(200);
    await proxy.cut();
    // Counted locally from here: still served, and the local budget still stops a flood.
    for (let i = 0; i < 3; i += 1) expect((await get(t.app)).statusCode).toBe(200);
    expect((await get(t.app)).statusCode).toBe(429);
    await expect.poll(() => lines.join('')).toMatch(/Redis unreachable: each instance counts alone/);
  });

  it('starts and limits on its own when nobody listens at REDIS_URL', async () => {
    const lines: string[] = [];
    const t = await createTestApp(
      {
        rateLimitPerAddress: 2,
        rateLimitPerCustomer: 0,
        redisUrl: 'redis://127.0.0.1:1',
        redisKeyPrefix: prefix(),
      },
      undefined,
      { write: (line) => void lines.push(line) },
    );
    opened.push(t);
    expect((await get(t.app)).statusCode).toBe(200);
    expect((await get(t.app)).statusCode).toBe(200);
    expect((await get(t.app)).statusCode).toBe(429);
    expect(lines.join('')).toMatch(/Redis unreachable at start/);
  });
});

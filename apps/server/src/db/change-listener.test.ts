import net from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { listenForChanges, nextRetryDelay } from './change-listener.js';
import { testDbTarget } from '../testing/test-database.js';

// An instance is not ready until its change listener listens (operations plugin), so after a
// database outage the listener's next attempt is time customers wait for (deploy/README.md, the
// fleet test's PostgreSQL restart).

describe('the change listener’s retries', () => {
  it('tries every 250 ms in the first 10 s of a loss, then doubles its wait up to 30 s', () => {
    const delays: number[] = [];
    let lostFor = 0;
    let wait = 250;
    while (lostFor < 120_000) {
      wait = nextRetryDelay(lostFor, wait, 250, 10_000);
      delays.push(wait);
      lostFor += wait;
    }
    // 40 attempts at 250 ms cover the first 10 s (a database restart is over by then) …
    expect(delays.slice(0, 40)).toEqual(Array(40).fill(250));
    // … then 0.5 s, 1 s, 2 s … never more than 30 s.
    expect(delays.slice(40, 46)).toEqual([500, 1000, 2000, 4000, 8000, 16_000]);
    expect(Math.max(...delays)).toBe(30_000);
    expect(delays.at(-1)).toBe(30_000);
  });
});

// A database that goes away and comes back needs a server (PGlite is the process's own): a TCP gate in
// front of it, closed for the outage, stands for a PostgreSQL restart.
if (testDbTarget() === 'postgres')
  describe('the change listener after a database outage', () => {
    const target = new URL(process.env.TEST_DATABASE_URL!);
    const sockets = new Set<net.Socket>();
    let gate: net.Server | undefined;
    let port = 0;

    const open = () =>
      new Promise<void>((resolve, reject) => {
        const server = net.createServer((client) => {
          const upstream = net.connect(Number(target.port || 5432), target.hostname);
          for (const socket of [client, upstream]) {
            sockets.add(socket);
            socket.on('close', () => sockets.delete(socket));
            socket.on('error', () => undefined);
          }
          client.pipe(upstream).pipe(client);
        });
        server.once('error', reject);
        server.listen(port, '127.0.0.1', () => {
          port = (server.address() as net.AddressInfo).port;
          gate = server;
          resolve();
        });
      });
    const close = () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        if (!gate) return resolve();
        gate.close(() => resolve());
        gate = undefined;
      });

    afterAll(close);

    it('listens again within half a second of the database’s return after a 2 s outage', async () => {
      await open();
      const url = new URL(target);
      url.host = `127.0.0.1:${port}`;
      const listener = listenForChanges(url.toString());
      const events: { kind: 'listening' | 'lost'; at: number }[] = [];
      try {
        await listener.subscribe('roadpass_listener_test', {
          notice: () => undefined,
          listening: () => events.push({ kind: 'listening', at: Date.now() }),
          lost: () => events.push({ kind: 'lost', at: Date.now() }),
        });
        expect(events.map((event) => event.kind)).toEqual(['listening']);

        await close();
        await new Promise((resolve) => setTimeout(resolve, 2000));
        expect(events.filter((event) => event.kind === 'lost').length).toBeGreaterThan(0);
        await open();
        const back = Date.now();
        while (events.at(-1)!.kind !== 'listening' && Date.now() - back < 10_000)
          await new Promise((resolve) => setTimeout(resolve, 20));

        expect(events.at(-1)!.kind).toBe('listening');
        // The doubling waits of before (0.5 s, 1 s, 2 s …) came back 1.5 s after such an outage.
        expect(events.at(-1)!.at - back).toBeLessThan(500);
      } finally {
        await listener.close();
      }
    });
  });

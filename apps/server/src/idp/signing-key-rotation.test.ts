import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeProtectedHeader } from 'jose';
import type { FastifyInstance } from 'fastify';
import { apiPaths } from '@roadpass/contracts';
import { runKeysCli } from '../cli/keys-cli.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { createTestDatabase, type TestDatabase } from '../testing/test-database.js';
import { signIn } from '../testing/sign-in.js';
import { REALM_PATH } from './realm.js';

const DEMO = { email: 'demo.dk@example.com', password: 'Demo-2026!' };
const env = { NODE_ENV: 'test', LOG_LEVEL: 'warn', PUBLIC_URL: 'http://localhost:8080' };
const HOUR = 3600_000;

// Issue 21 §6: the signing keys rotate with an overlap, by a command. Each step is followed by a
// "roll": a new instance on the same database, as a rolling restart gives.
describe('npm run keys -- rotate', { timeout: 120_000 }, () => {
  let database: TestDatabase;
  let clock = Date.parse('2026-11-26T08:00:00Z');
  const apps: TestApp[] = [];
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    for (const a of apps) await a.close();
    await database?.drop();
  });

  async function keys(command: string) {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runKeysCli(
      [command],
      { out: (t) => out.push(t), err: (t) => err.push(t) },
      { env, db: database.db, now: () => new Date(clock) },
    );
    return { code, out: out.join('\n'), err: err.join('\n') };
  }
  /** A restarted instance: it reads the keys as they are now. */
  async function roll(): Promise<FastifyInstance> {
    const t = await createTestApp({}, database.db);
    apps.push(t);
    return t.app;
  }
  const published = async (app: FastifyInstance) =>
    (await app.inject({ url: `${REALM_PATH}/protocol/openid-connect/certs` }))
      .json<{ keys: { kid: string }[] }>()
      .keys.map((k) => k.kid);
  const signedWith = (jwt: string) => decodeProtectedHeader(jwt).kid;
  const loginStatus = (app: FastifyInstance, token: string) =>
    app.inject({ url: apiPaths.loginStatus, headers: { authorization: `Bearer ${token}` } });

  it('publishes a new key before it signs, keeps the old one until the longest lifetime, then removes it', async () => {
    const first = await roll();
    const [oldKid] = await published(first);
    const oldToken = (await signIn(first, DEMO)).accessToken;
    expect(signedWith(oldToken)).toBe(oldKid);

    // 1. Stage: published and accepted after the roll, not signing.
    const staged = await keys('rotate');
    expect(staged.code, staged.err).toBe(0);
    const newKid = /Staged key (\S+):/.exec(staged.out)![1]!;
    expect(staged.out).toContain('2026-11-26T09:00:00.000Z');
    const second = await roll();
    expect(await published(second)).toEqual([oldKid, newKid]);
    expect(signedWith((await signIn(second, DEMO)).accessToken)).toBe(oldKid);

    // Too early to sign with it: nothing changes, and the command says when.
    clock += HOUR - 60_000;
    const early = await keys('rotate');
    expect(early.code).toBe(1);
    expect(early.err).toMatch(/next step \(activate\) is due at 2026-11-26T09:00:00.000Z/);

    // 2. Activate: the new key signs after the roll; tokens of the old one still verify.
    clock += 60_000;
    const activated = await keys('rotate');
    expect(activated.code, activated.err).toBe(0);
    expect(activated.out).toContain(`Key ${newKid} signs now; ${oldKid} is retired`);
    const third = await roll();
    expect(await published(third)).toEqual([newKid, oldKid]);
    const newToken = (await signIn(third, DEMO)).accessToken;
    expect(signedWith(newToken)).toBe(newKid);
    expect((await loginStatus(third, oldToken)).statusCode).toBe(200);
    expect((await loginStatus(third, newToken)).statusCode).toBe(200);

    // The old key stays for the longest lifetime (8 h sessions and refresh tokens by default).
    clock += 8 * HOUR - 60_000;
    const keep = await keys('rotate');
    expect(keep.code).toBe(1);
    expect(keep.err).toMatch(
      new RegExp(`retired key ${oldKid} still verifies.*due at 2026-11-26T17:00:00.000Z`),
    );
    expect((await keys('status')).out).toMatch(new RegExp(`${oldKid}  verifies only \\(retired\\)`));

    // 3. Remove: after the roll the old key is neither published nor accepted.
    clock += 60_000;
    const removed = await keys('rotate');
    expect(removed.code, removed.err).toBe(0);
    expect(removed.out).toContain(`Removed the retired key ${oldKid}`);
    const fourth = await roll();
    expect(await published(fourth)).toEqual([newKid]);
    expect((await loginStatus(fourth, oldToken)).statusCode).toBe(401);
    expect((await loginStatus(fourth, newToken)).statusCode).toBe(200);
    expect((await keys('status')).out).toMatch(/Next rotation step: stage a new key, any time/);
  });
});

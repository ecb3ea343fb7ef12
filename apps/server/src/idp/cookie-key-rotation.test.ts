import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { runKeysCli } from '../cli/keys-cli.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { createTestDatabase, type TestDatabase } from '../testing/test-database.js';
import {
  authorizationRequest,
  browse,
  CookieJar,
  followToCallback,
  signInWithSession,
} from '../testing/sign-in.js';
import { REALM_PATH } from './realm.js';

const DEMO = { email: 'demo.dk@example.com', password: 'Demo-2026!' };
const env = { NODE_ENV: 'test', LOG_LEVEL: 'warn', PUBLIC_URL: 'http://localhost:8080' };
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

// docs/operations.md#cookie-keys: the identity provider's cookie keys rotate with an overlap, by a
// command, like the signing keys (signing-key-rotation.test.ts). Each step is followed by a "roll":
// a new instance on the same database, as a rolling restart gives. A browser's session cookie
// is what must keep working: it is checked by a silent authorization request (prompt=none).
describe('npm run keys -- rotate-cookies', { timeout: 120_000 }, () => {
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
  async function roll(): Promise<FastifyInstance> {
    const t = await createTestApp({}, database.db);
    apps.push(t);
    return t.app;
  }
  /** The session cookie (and its signature) of a browser that signed in on `app`. */
  async function sessionCookies(app: FastifyInstance): Promise<Map<string, string>> {
    const { jar } = await signInWithSession(app, DEMO);
    const names = jar.names().filter((n) => n.startsWith('roadpass_idp_session'));
    expect(names.length).toBeGreaterThan(1);
    return new Map(names.map((n) => [n, jar.valueOf(n)!]));
  }
  /**
   * Whether `app` recognises the session of these cookies: a silent authorization request answers
   * a code, or login_required. A fresh jar each time: a cookie verified by an older key comes back
   * signed again with the first key, which would hide what the browser first sent.
   */
  async function recognised(app: FastifyInstance, cookies: Map<string, string>): Promise<boolean> {
    const jar = new CookieJar();
    for (const [name, value] of cookies) jar.set(name, value, REALM_PATH);
    const { url } = authorizationRequest(app, { params: { prompt: 'none' } });
    const first = await browse(app, jar, url);
    const callback = await followToCallback(app, jar, first.headers.location as string);
    if (callback.searchParams.get('code')) return true;
    expect(callback.searchParams.get('error')).toBe('login_required');
    return false;
  }

  it('accepts a new key before it signs, keeps the old one for the longest session, then removes it', async () => {
    const first = await roll();
    const before = await sessionCookies(first);
    expect(await recognised(first, before)).toBe(true);
    const signingBefore = /Cookie keys[^\n]*\n {2}(\S+) {2}signs/.exec((await keys('status')).out)![1]!;

    // 1. Stage: accepted after the roll, not signing; sessions of before still work.
    const staged = await keys('rotate-cookies');
    expect(staged.code, staged.err).toBe(0);
    const newId = /Staged cookie key (\S+):/.exec(staged.out)![1]!;
    expect(staged.out).toContain('2026-11-26T08:10:00.000Z');
    expect(staged.out).not.toMatch(/[A-Za-z0-9_-]{43}/); // ids only, never a key
    const second = await roll();
    expect(await recognised(second, before)).toBe(true);

    // Too early to sign with it: nothing changes, and the command says when.
    clock += 10 * MINUTE - 1000;
    const early = await keys('rotate-cookies');
    expect(early.code).toBe(1);
    expect(early.err).toMatch(/next step \(activate\) is due at 2026-11-26T08:10:00.000Z/);

    // 2. Activate: cookies of the rolled instance are signed with the new key. The instance that
    // saw the staged key accepts them; one started before the stage would not (hence the roll).
    clock += 1000;
    const activated = await keys('rotate-cookies');
    expect(activated.code, activated.err).toBe(0);
    expect(activated.out).toContain(`Cookie key ${newId} signs now; ${signingBefore} is retired`);
    const third = await roll();
    const after = await sessionCookies(third);
    expect(await recognised(third, after)).toBe(true);
    expect(await recognised(second, after)).toBe(true);
    expect(await recognised(first, after)).toBe(false);
    expect(await recognised(third, before)).toBe(true);

    // The old key stays for the longest session (8 h by default).
    clock += 8 * HOUR - 1000;
    const keep = await keys('rotate-cookies');
    expect(keep.code).toBe(1);
    expect(keep.err).toMatch(
      new RegExp(`retired cookie key ${signingBefore} still verifies.*due at 2026-11-26T16:10:00.000Z`),
    );
    expect((await keys('status')).out).toMatch(new RegExp(`${signingBefore} {2}verifies only \\(retired\\)`));

    // 3. Remove: after the roll, cookies signed with the old key are no longer recognised.
    clock += 1000;
    const removed = await keys('rotate-cookies');
    expect(removed.code, removed.err).toBe(0);
    expect(removed.out).toContain(`Removed the retired cookie key ${signingBefore}`);
    const fourth = await roll();
    expect(await recognised(fourth, before)).toBe(false);
    expect(await recognised(fourth, after)).toBe(true);
    const status = (await keys('status')).out;
    expect(status).toMatch(/Next cookie-key step: stage a new key, any time/);
    expect(status).toMatch(
      new RegExp(`Cookie keys \\(the first signs, all verify\\):\\n {2}${newId} {2}signs\\n`),
    );
    // The signing keys were not touched.
    expect(status).toMatch(/Next rotation step: stage a new key, any time/);
  });
});

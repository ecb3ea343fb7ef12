import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { browse, openLoginPage, signIn } from '../testing/sign-in.js';
import { createMigratedTestDatabase, type TestDatabase } from '../testing/test-database.js';
import { createLoginThrottle } from './login-throttle.js';

const alerts = (html: string) => [...html.matchAll(/role="alert"[^>]*>([^<]*)</g)].map((m) => m[1]);

describe('sign-in throttling over HTTP', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  async function attempt(email: string, password: string, uiLocales?: string) {
    const { jar, loginUrl } = await openLoginPage(t.app, uiLocales ? { uiLocales } : {});
    return browse(t.app, jar, loginUrl, { email, password });
  }

  it('refuses further attempts for an e-mail after 5 failures, even with the right password', async () => {
    for (let i = 0; i < 5; i += 1) {
      expect((await attempt('demo.it@example.com', `wrong-${i}`)).statusCode).toBe(401);
    }
    const refused = await attempt('demo.it@example.com', 'Demo-2026!');
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(14 * 60);
    expect(alerts(refused.body)).toEqual(['Too many attempts, please try again in 15 minutes.']);
    expect(refused.body).toContain('value="demo.it@example.com"');

    const german = await attempt('DEMO.IT@example.com ', 'Demo-2026!', 'de');
    expect(german.statusCode).toBe(429);
    expect(alerts(german.body)).toEqual(['Zu viele Versuche, bitte versuche es in 15 Minuten erneut.']);

    // Other customers are not affected.
    await expect(
      signIn(t.app, { email: 'demo.fr@example.com', password: 'Demo-2026!' }),
    ).resolves.toBeTruthy();
  });

  it('clears an e-mail’s failures on a successful sign-in', async () => {
    for (let i = 0; i < 4; i += 1)
      expect((await attempt('demo.es@example.com', 'wrong')).statusCode).toBe(401);
    await signIn(t.app, { email: 'demo.es@example.com', password: 'Demo-2026!' });
    for (let i = 0; i < 5; i += 1)
      expect((await attempt('demo.es@example.com', 'wrong')).statusCode).toBe(401);
    expect((await attempt('demo.es@example.com', 'wrong')).statusCode).toBe(429);
  });

  it('keeps no typed e-mail address in the attempts table', async () => {
    const rows = await t.db.selectFrom('login_attempts').select(['scope', 'subject']).execute();
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row.subject).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('the throttle’s rules', () => {
  let database: TestDatabase;
  let clock = Date.parse('2026-11-22T10:00:00Z');
  const now = () => clock;

  beforeAll(async () => {
    database = await createMigratedTestDatabase();
  });
  afterAll(() => database?.drop());

  it('counts failures within 15 minutes only, and names the wait in seconds', async () => {
    const throttle = createLoginThrottle(database.db, undefined, now);
    for (let i = 0; i < 5; i += 1) {
      expect(await throttle.check('window@example.com', '10.0.0.1')).toEqual({ allowed: true });
      await throttle.recordFailure('window@example.com', '10.0.0.1');
      clock += 60_000;
    }
    // The first failure was 5 minutes ago: it leaves the window in 10 minutes.
    expect(await throttle.check('window@example.com', '10.0.0.2')).toEqual({
      allowed: false,
      retryAfterSeconds: 600,
    });
    clock += 600_000;
    expect(await throttle.check('window@example.com', '10.0.0.2')).toEqual({ allowed: true });
  });

  it('refuses an IP address after 20 failures, whatever the e-mail', async () => {
    const throttle = createLoginThrottle(database.db, undefined, now);
    for (let i = 0; i < 20; i += 1) await throttle.recordFailure(`user${i}@example.com`, '10.9.9.9');
    const verdict = await throttle.check('someone-new@example.com', '10.9.9.9');
    expect(verdict.allowed).toBe(false);
    expect(await throttle.check('someone-new@example.com', '10.9.9.10')).toEqual({ allowed: true });
  });

  it('is shared by every instance: the counts live in the database', async () => {
    const a = createLoginThrottle(database.db, undefined, now);
    const b = createLoginThrottle(database.db, undefined, now);
    for (let i = 0; i < 5; i += 1) await a.recordFailure('shared@example.com', `10.1.1.${i}`);
    expect((await b.check('shared@example.com', '10.2.2.2')).allowed).toBe(false);
    await b.recordSuccess('shared@example.com');
    expect(await a.check('shared@example.com', '10.2.2.2')).toEqual({ allowed: true });
  });
});

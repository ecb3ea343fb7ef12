import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  apiPaths,
  CSRF_HEADER,
  type ActiveSessionList,
  type SecurityActivityPage,
} from '@roadpass/contracts';
import { createTestApp, type TestApp } from '../../testing/test-app.js';
import { sql } from 'kysely';
import {
  browse,
  exchangeCode,
  followToCallback,
  openLoginPage,
  pathOf,
  providerEndpoints,
  refresh,
  signIn,
  type TokenSet,
} from '../../testing/sign-in.js';
import { createTestCustomer, TEST_CUSTOMER_PASSWORD as PASSWORD } from '../../testing/loyalty-members.js';
import { endExpiredSessions, EXPIRED_SESSIONS_PER_TRANSACTION } from './purge.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ rateLimitPerAddress: 0, rateLimitPerCustomer: 0 });
});
afterAll(() => t.close());

/**
 * What the database holds for a session whose device entry a test expected, for the failure's message.
 * (Twice in whole suites a sign-in's entry was missing: the token response did not wait for it, since
 * the middleware meant to await it was registered after provider.callback(); see the tests below.)
 */
const heldFor = async (db: TestApp['db'], sid: string | undefined) =>
  sid === undefined
    ? { sid: 'none: the access token carries no sid' }
    : {
        sid,
        device: await db.selectFrom('session_devices').selectAll().where('sid', '=', sid).executeTakeFirst(),
        ended: await db.selectFrom('ended_sessions').selectAll().where('sid', '=', sid).executeTakeFirst(),
        now: new Date().toISOString(),
      };

const newCustomer = async () => {
  const customer = await createTestCustomer(t.db, { member: false });
  return { customer, signIn: () => signIn(t.app, { email: customer.email, password: PASSWORD }) };
};
const call = (tokens: TokenSet, url: string) =>
  t.app.inject({ url, headers: { authorization: `Bearer ${tokens.accessToken}` } });
const csrfOf = async (tokens: TokenSet) =>
  (await call(tokens, apiPaths.loginStatus)).headers[CSRF_HEADER.toLowerCase()] as string;
const write = async (tokens: TokenSet, method: 'DELETE' | 'POST' | 'PUT', url: string, payload?: object) =>
  t.app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${tokens.accessToken}`, [CSRF_HEADER]: await csrfOf(tokens) },
    ...(payload ? { payload } : {}),
  });
const sessionsOf = async (tokens: TokenSet) =>
  (await call(tokens, apiPaths.sessions)).json<ActiveSessionList>().sessions;
const sidOf = (tokens: TokenSet) =>
  JSON.parse(Buffer.from(tokens.accessToken.split('.')[1]!, 'base64url').toString()).sid as string;

/** The API's answer to an access token of an ended session. */
const expectRefused = async (tokens: TokenSet) => {
  const res = await call(tokens, apiPaths.loginStatus);
  expect(res.statusCode).toBe(401);
  expect(res.headers['www-authenticate']).toContain('error="invalid_token"');
};

describe('sessions (docs/product/security.md#sessions)', () => {
  it('lists the active sessions with this device marked; signing out another ends its tokens at once', async () => {
    const { signIn: sign } = await newCustomer();
    const here = await sign();
    const there = await sign();
    const listed = await sessionsOf(here);
    expect(listed.map((s) => s.id).sort()).toEqual([sidOf(here), sidOf(there)].sort());
    expect(listed.find((s) => s.current)?.id).toBe(sidOf(here));
    expect(listed[0]).toMatchObject({ network: '127.0.0.x', place: null, kind: 'browser' });

    const res = await write(here, 'DELETE', apiPaths.session(sidOf(there)));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ sessionsEnded: 1 });
    await expectRefused(there);
    expect((await refresh(t.app, there.refreshToken)).ok).toBe(false);
    expect((await call(here, apiPaths.loginStatus)).statusCode).toBe(200);
    expect((await sessionsOf(here)).map((s) => s.id)).toEqual([sidOf(here)]);
  });

  it('answers lists asked at once (read together, decision 0054) each with its own sessions', async () => {
    const one = await (await newCustomer()).signIn();
    const { signIn: sign } = await newCustomer();
    const two = [await sign(), await sign()];
    const [ofOne, ofTwo, ofTwoAgain] = await Promise.all([
      sessionsOf(one),
      sessionsOf(two[0]!),
      sessionsOf(two[1]!),
    ]);
    expect(ofOne.map((s) => s.id)).toEqual([sidOf(one)]);
    const missing: (string | undefined)[] = two.map(sidOf).filter((sid) => !ofTwo.some((s) => s.id === sid));
    expect(missing, JSON.stringify(await Promise.all(missing.map((sid) => heldFor(t.db, sid))))).toEqual([]);
    expect(ofTwo.map((s) => s.id).sort()).toEqual(two.map(sidOf).sort());
    expect(ofTwo.find((s) => s.current)?.id).toBe(sidOf(two[0]!));
    expect(ofTwoAgain.find((s) => s.current)?.id).toBe(sidOf(two[1]!));
  });

  it("never ends another customer's session (404, and it goes on)", async () => {
    const mallory = await (await newCustomer()).signIn();
    const victim = await (await newCustomer()).signIn();
    const res = await write(mallory, 'DELETE', apiPaths.session(sidOf(victim)));
    expect(res.statusCode).toBe(404);
    expect((await call(victim, apiPaths.loginStatus)).statusCode).toBe(200);
    expect((await refresh(t.app, victim.refreshToken)).ok).toBe(true);
  });

  it('signs out all others: their access and refresh tokens stop working, this one goes on', async () => {
    const { signIn: sign } = await newCustomer();
    const here = await sign();
    const others = [await sign(), await sign()];
    const res = await write(here, 'DELETE', apiPaths.sessions);
    expect(res.json()).toEqual({ sessionsEnded: 2 });
    for (const other of others) await expectRefused(other);
    expect((await call(here, apiPaths.loginStatus)).statusCode).toBe(200);
    expect((await refresh(t.app, here.refreshToken)).ok).toBe(true);
  });

  it('the logout call ends the access token in hand too', async () => {
    const tokens = await (await newCustomer()).signIn();
    expect((await write(tokens, 'POST', apiPaths.logout)).json()).toEqual({ sessionsEnded: 1 });
    await expectRefused(tokens);
  });

  it('refresh-token reuse (RFC 9700) ends the session: the latest access token is refused', async () => {
    const first = await (await newCustomer()).signIn();
    const renewed = await refresh(t.app, first.refreshToken);
    if (!renewed.ok) throw new Error('refresh failed');
    expect((await call(renewed.tokens, apiPaths.loginStatus)).statusCode).toBe(200);
    const reused = await refresh(t.app, first.refreshToken);
    expect(reused).toMatchObject({ ok: false, error: 'invalid_grant' });
    await expectRefused(renewed.tokens);
    await expectRefused(first);
  });

  it('revoking the refresh token (RFC 7009) ends the session', async () => {
    const tokens = await (await newCustomer()).signIn();
    const revoked = await t.app.inject({
      method: 'POST',
      url: pathOf(`${providerEndpoints(t.app).issuer}/protocol/openid-connect/revoke`),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        token: tokens.refreshToken,
        token_type_hint: 'refresh_token',
        client_id: 'portal-client',
      }).toString(),
    });
    expect(revoked.statusCode).toBe(200);
    await expectRefused(tokens);
  });

  it('a password change signs out the other devices unless the customer unticks it', async () => {
    const { signIn: sign } = await newCustomer();
    const here = await sign();
    const kept = await sign();
    const keep = await write(here, 'PUT', apiPaths.password, {
      passwordOld: PASSWORD,
      password: 'Sessions-2027!',
      signOutOtherDevices: false,
    });
    expect(keep.statusCode).toBe(200);
    expect((await call(kept, apiPaths.loginStatus)).statusCode).toBe(200);
    const change = await write(here, 'PUT', apiPaths.password, {
      passwordOld: 'Sessions-2027!',
      password: 'Sessions-2028!',
    });
    expect(change.statusCode).toBe(200);
    await expectRefused(kept);
    expect((await call(here, apiPaths.loginStatus)).statusCode).toBe(200);
  });
});

describe('sessions that run out (docs/product/security.md#sessions)', () => {
  it('are listed until their grant runs out, then marked ended (expired) with their tokens refused', async () => {
    // Its own server, purging every second.
    const e = await createTestApp({
      rateLimitPerAddress: 0,
      rateLimitPerCustomer: 0,
      messagesPurgeIntervalSeconds: 1,
    });
    try {
      const customer = await createTestCustomer(e.db, { member: false });
      const sign = () => signIn(e.app, { email: customer.email, password: PASSWORD });
      const here = await sign();
      const there = await sign();
      const expiryOf = async (sid: string) => {
        const row = await e.db
          .selectFrom('session_devices')
          .select('expires_at')
          .where('sid', '=', sid)
          .executeTakeFirst();
        if (!row) throw new Error(`no device entry: ${JSON.stringify(await heldFor(e.db, sid))}`);
        return row.expires_at.getTime();
      };
      const before = await expiryOf(sidOf(there));
      expect(before).toBeGreaterThan(Date.now());
      // A renewal does not move the end: the grant (and with it every refresh token) ends then.
      const renewed = await refresh(e.app, there.refreshToken);
      expect(renewed.ok).toBe(true);
      expect(await expiryOf(sidOf(there))).toBe(before);

      // Its time is up (moved back rather than waited for): the next purge marks it ended.
      await e.db
        .updateTable('session_devices')
        .set({ expires_at: new Date(Date.now() - 1000) })
        .where('sid', '=', sidOf(there))
        .execute();
      await vi.waitFor(
        async () => {
          const ended = await e.db
            .selectFrom('ended_sessions')
            .select('reason')
            .where('sid', '=', sidOf(there))
            .executeTakeFirst();
          expect(ended?.reason).toBe('expired');
        },
        { timeout: 5000, interval: 100 },
      );
      const tokens = renewed.ok ? renewed.tokens : there;
      const refused = await e.app.inject({
        url: apiPaths.loginStatus,
        headers: { authorization: `Bearer ${tokens.accessToken}` },
      });
      expect(refused.statusCode).toBe(401);
      const listed = await e.app.inject({
        url: apiPaths.sessions,
        headers: { authorization: `Bearer ${here.accessToken}` },
      });
      expect(listed.json<ActiveSessionList>().sessions.map((s) => s.id)).toEqual([sidOf(here)]);
    } finally {
      await e.close();
    }
  });

  it('are all ended, however many ran out since the last purge', async () => {
    // More than one statement can bind at four parameters a row (PostgreSQL takes at most 65 535):
    // ending them all in one insert failed at every purge once a million customers' sessions had
    // run out, and the set only grew (29 Nov 2026).
    const customer = await createTestCustomer(t.db, { member: false });
    const count = 16_384 + EXPIRED_SESSIONS_PER_TRANSACTION + 1;
    await sql`insert into session_devices (sid, customer_id, expires_at)
      select 'run-out-' || i, ${customer.id}::uuid, now() - interval '1 minute'
      from generate_series(1, ${count}::int) as i`.execute(t.db);
    const marked = await endExpiredSessions(t.db, new Date(), 60_000);
    expect(new Set(marked.filter((sid) => sid.startsWith('run-out-'))).size).toBe(count);
    const left = await t.db
      .selectFrom('session_devices')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('customer_id', '=', customer.id)
      .executeTakeFirstOrThrow();
    expect(Number(left.n)).toBe(0);
    const ended = await t.db
      .selectFrom('ended_sessions')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('customer_id', '=', customer.id)
      .where('reason', '=', 'expired')
      .executeTakeFirstOrThrow();
    expect(Number(ended.n)).toBe(count);
  });
});

describe('last active (docs/product/security.md#sessions)', () => {
  it("an API call moves its session's last-active time, written with the others of the same second", async () => {
    const { signIn: sign } = await newCustomer();
    const [one, two] = [await sign(), await sign()];
    const long = new Date(Date.now() - 3_600_000);
    await t.db
      .updateTable('session_devices')
      .set({ last_active_at: long })
      .where('sid', 'in', [sidOf(one), sidOf(two)])
      .execute();
    const lastActive = async () =>
      Object.fromEntries(
        (
          await t.db
            .selectFrom('session_devices')
            .select(['sid', 'last_active_at'])
            .where('sid', 'in', [sidOf(one), sidOf(two)])
            .execute()
        ).map((r) => [r.sid, r.last_active_at.getTime()]),
      );
    const before = Date.now();
    expect((await call(one, apiPaths.loginStatus)).statusCode).toBe(200);
    expect((await call(two, apiPaths.loginStatus)).statusCode).toBe(200);
    await vi.waitFor(
      async () => {
        const times = await lastActive();
        expect(times[sidOf(one)]).toBeGreaterThanOrEqual(before - 1000);
        expect(times[sidOf(two)]).toBeGreaterThanOrEqual(before - 1000);
      },
      { timeout: 5000, interval: 100 },
    );
    // The list shows it: the session used a moment ago comes first.
    const listed = await sessionsOf(one);
    expect(new Date(listed[0]!.lastActiveAt).getTime()).toBeGreaterThanOrEqual(before - 1000);
  });
});

describe("a sign-in whose session's device entry cannot be written (docs/product/security.md#sessions)", () => {
  /**
   * Makes the database refuse the first `failures` device entries written from now on (a trigger that
   * raises; a sequence counts the tries, since it is not rolled back with the failed statement).
   */
  const refuseDeviceWrites = async (failures: number) => {
    await sql`create sequence device_write_tries`.execute(t.db);
    await sql
      .raw(
        `create function refuse_device_write() returns trigger language plpgsql as $$
      begin
        if nextval('device_write_tries') <= ${failures} then raise exception 'device entry refused (test)'; end if;
        return new;
      end $$`,
      )
      .execute(t.db);
    await sql`create trigger refuse_device_write before insert on session_devices
      for each row execute function refuse_device_write()`.execute(t.db);
    return async () => {
      await sql`drop trigger refuse_device_write on session_devices`.execute(t.db);
      await sql`drop function refuse_device_write()`.execute(t.db);
      await sql`drop sequence device_write_tries`.execute(t.db);
    };
  };

  /** Signs in up to the token request and answers its response. */
  const tokenResponseOf = async (email: string) => {
    const { jar, loginUrl, verifier } = await openLoginPage(t.app);
    const submitted = await browse(t.app, jar, loginUrl, { email, password: PASSWORD });
    expect(submitted.statusCode).toBe(303);
    const callback = await followToCallback(t.app, jar, submitted.headers.location as string);
    return exchangeCode(t.app, callback.searchParams.get('code')!, verifier);
  };

  it('is tried again: a write refused twice still ends in a listed session', async () => {
    const { signIn: sign } = await newCustomer();
    const allow = await refuseDeviceWrites(2);
    try {
      const tokens = await sign();
      expect((await sessionsOf(tokens)).map((s) => s.id)).toEqual([sidOf(tokens)]);
    } finally {
      await allow();
    }
  });

  it('is refused with 503 and no tokens when the entry cannot be written at all, so no session goes unseen', async () => {
    const { customer, signIn: sign } = await newCustomer();
    const allow = await refuseDeviceWrites(3);
    let res;
    try {
      res = await tokenResponseOf(customer.email);
    } finally {
      await allow();
    }
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('1');
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json();
    expect(body).toEqual({
      error: 'temporarily_unavailable',
      error_description: 'the sign-in could not be recorded; sign in again',
    });
    expect(body).not.toHaveProperty('access_token');
    // Signing in again works, and the list holds that session only.
    const tokens = await sign();
    expect((await sessionsOf(tokens)).map((s) => s.id)).toEqual([sidOf(tokens)]);
  });
});

describe('security activity (docs/product/security.md#security-activity)', () => {
  it("shows the customer's own events newest first, failed sign-ins counted per day, paged", async () => {
    const { customer, signIn: sign } = await newCustomer();
    const other = await (await newCustomer()).signIn();
    const first = await sign();
    await sign();
    await write(first, 'DELETE', apiPaths.sessions);
    await t.db
      .insertInto('security_events')
      .values([1, 2, 3].map(() => ({ customer_id: customer.id, kind: 'sign_in_failed', details: {} })))
      .execute();
    const page = (await call(first, `${apiPaths.securityActivity}?size=3`)).json<SecurityActivityPage>();
    expect(page.events.map((e) => e.kind)).toEqual(['sign_in_failed', 'session_ended', 'signed_in']);
    expect(page.events[0]!.count).toBe(3);
    expect(page.events[1]!.reason).toBe('signed_out_elsewhere');
    expect(page.events[2]!.place).toBe('127.0.0.x');
    expect(page).toMatchObject({ page: 0, hasMore: true, retentionDays: 90 });
    const next = (
      await call(first, `${apiPaths.securityActivity}?size=3&page=1`)
    ).json<SecurityActivityPage>();
    expect(next.events.map((e) => e.kind)).toEqual(['signed_in']);
    expect(next.hasMore).toBe(false);
    // Another customer sees only their own sign-in.
    const theirs = (await call(other, apiPaths.securityActivity)).json<SecurityActivityPage>();
    expect(theirs.events.map((e) => e.kind)).toEqual(['signed_in']);
  });

  it("answers pages asked at once (read together, decision 0054) each with its own customer's events", async () => {
    const { customer, signIn: sign } = await newCustomer();
    const mine = await sign();
    await t.db
      .insertInto('security_events')
      .values([1, 2].map(() => ({ customer_id: customer.id, kind: 'sign_in_failed', details: {} })))
      .execute();
    const theirs = await (await newCustomer()).signIn();
    const [first, second, other] = await Promise.all([
      call(mine, `${apiPaths.securityActivity}?size=1`),
      call(mine, `${apiPaths.securityActivity}?size=1&page=1`),
      call(theirs, apiPaths.securityActivity),
    ]);
    expect(first.json<SecurityActivityPage>().events).toMatchObject([{ kind: 'sign_in_failed', count: 2 }]);
    expect(first.json<SecurityActivityPage>().hasMore).toBe(true);
    expect(second.json<SecurityActivityPage>().events.map((e) => e.kind)).toEqual(['signed_in']);
    expect(other.json<SecurityActivityPage>().events.map((e) => e.kind)).toEqual(['signed_in']);
  });

  it('refuses a page size out of range with the field named', async () => {
    const tokens = await (await newCustomer()).signIn();
    const res = await call(tokens, `${apiPaths.securityActivity}?size=1000`);
    expect(res.statusCode).toBe(400);
    expect(JSON.stringify(res.json())).toContain('size');
  });
});

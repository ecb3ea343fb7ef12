import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiPaths,
  CSRF_HEADER,
  type ApiErrorBody,
  type LoyaltyExpiryForecast,
  type LoyaltyTierDetails,
  type PointsReminderSetting,
} from '@roadpass/contracts';
import { createTestApp, type TestApp } from '../../testing/test-app.js';
import { signIn } from '../../testing/sign-in.js';
import { createTestCustomer, demoMember, TEST_CUSTOMER_PASSWORD } from '../../testing/loyalty-members.js';
import type { Customer } from '../customers/index.js';
import { createMessageSender, loadMessageTexts } from '../messages/index.js';
import { createExpiryReminders } from './expiry-reminders.js';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

interface Session {
  customer: Customer;
  auth: Record<string, string>;
}

async function sessionOf(customer: Customer, password = TEST_CUSTOMER_PASSWORD): Promise<Session> {
  const { accessToken } = await signIn(t.app, { email: customer.email, password });
  const auth: Record<string, string> = { authorization: `Bearer ${accessToken}` };
  const status = await t.app.inject({ url: apiPaths.loginStatus, headers: auth });
  auth[CSRF_HEADER] = status.headers[CSRF_HEADER.toLowerCase()] as string;
  return { customer, auth };
}

const call = (session: Session | undefined, options: InjectOptions) =>
  t.app.inject({ ...options, headers: { ...session?.auth, ...options.headers } });

const putReminders = (session: Session, uuid: string, body: unknown, headers: Record<string, string> = {}) =>
  call(session, { method: 'PUT', url: apiPaths.pointsReminders(uuid), payload: body as object, headers });

describe('expiry forecast call', () => {
  it('gives the demo member a visible forecast: twelve months, the nearest expiry and what keeps royal gold', async () => {
    const de = await sessionOf(await demoMember(t.db, 'de'), 'Demo-2026!');
    const res = await call(de, { url: apiPaths.loyaltyExpiryForecast(de.customer.id) });
    expect(res.statusCode).toBe(200);
    const forecast = res.json<LoyaltyExpiryForecast>();
    expect(forecast.months).toHaveLength(12);
    expect(forecast.reminderDays).toEqual([30, 7]);
    expect(forecast.months[0]!.month).toBe(new Date().toISOString().slice(0, 7));
    expect(forecast.months.filter((m) => m.points > 0).length).toBeGreaterThanOrEqual(8);
    expect(forecast.nextExpiry!.points).toBeGreaterThan(0);
    expect(Date.parse(forecast.nextExpiry!.date)).toBeGreaterThan(Date.now());

    const details = (
      await call(de, { url: apiPaths.loyaltyTierDetails(de.customer.id) })
    ).json<LoyaltyTierDetails>();
    expect(forecast.tierKeep).toMatchObject({ tier: 'royal-gold', date: details.tierExpirationDate });
    // What does not expire within the twelve months is what was earned this very month last year.
    expect(forecast.months.reduce((sum, m) => sum + m.points, 0)).toBeLessThanOrEqual(details.points);
  });

  it("refuses another customer's forecast with 403, and a non-member's with 404", async () => {
    const alice = await sessionOf(await createTestCustomer(t.db));
    const bob = await createTestCustomer(t.db);
    const other = await call(alice, { url: apiPaths.loyaltyExpiryForecast(bob.id) });
    expect(other.statusCode).toBe(403);
    expect(other.json<ApiErrorBody>().message).toContain('{uuid} is not yours');

    const outsider = await sessionOf(await createTestCustomer(t.db, { member: false }));
    const res = await call(outsider, { url: apiPaths.loyaltyExpiryForecast(outsider.customer.id) });
    expect(res.statusCode).toBe(404);
    expect(res.json<ApiErrorBody>().code).toBe('not_a_member');

    expect((await call(undefined, { url: apiPaths.loyaltyExpiryForecast(bob.id) })).statusCode).toBe(401);
  });
});

describe('points reminders choice', () => {
  it('is on by default, is turned off and on again, and is kept on the server', async () => {
    const me = await sessionOf(await createTestCustomer(t.db));
    const url = apiPaths.pointsReminders(me.customer.id);
    expect((await call(me, { url })).json<PointsReminderSetting>()).toEqual({ pointsReminders: true });

    const off = await putReminders(me, me.customer.id, { pointsReminders: false });
    expect(off.statusCode).toBe(200);
    expect(off.json<PointsReminderSetting>()).toEqual({ pointsReminders: false });
    expect((await call(me, { url })).json<PointsReminderSetting>()).toEqual({ pointsReminders: false });

    await putReminders(me, me.customer.id, { pointsReminders: true });
    expect((await call(me, { url })).json<PointsReminderSetting>()).toEqual({ pointsReminders: true });
  });

  it('is also there for a customer who has not joined the programme (a service message)', async () => {
    const me = await sessionOf(await createTestCustomer(t.db, { member: false }));
    expect((await putReminders(me, me.customer.id, { pointsReminders: false })).statusCode).toBe(200);
  });

  it("never changes another customer's choice", async () => {
    const alice = await sessionOf(await createTestCustomer(t.db));
    const bob = await sessionOf(await createTestCustomer(t.db));
    const res = await putReminders(alice, bob.customer.id, { pointsReminders: false });
    expect(res.statusCode).toBe(403);
    expect(res.json<ApiErrorBody>().message).toContain('{uuid} is not yours');
    expect((await call(alice, { url: apiPaths.pointsReminders(bob.customer.id) })).statusCode).toBe(403);
    expect(
      (await call(bob, { url: apiPaths.pointsReminders(bob.customer.id) })).json<PointsReminderSetting>(),
    ).toEqual({ pointsReminders: true });
  });

  it('needs the anti-forgery header and a boolean', async () => {
    const me = await sessionOf(await createTestCustomer(t.db));
    const forged = await putReminders(me, me.customer.id, { pointsReminders: false }, { [CSRF_HEADER]: '' });
    expect(forged.statusCode).toBe(403);
    const bad = await putReminders(me, me.customer.id, { pointsReminders: 'no' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<ApiErrorBody>().violations?.map((v) => v.field)).toContain('pointsReminders');
    const extra = await putReminders(me, me.customer.id, { pointsReminders: true, email: 'x@example.com' });
    expect(extra.statusCode).toBe(400);
    expect((await call(me, { url: apiPaths.pointsReminders(me.customer.id) })).json()).toEqual({
      pointsReminders: true,
    });
  });

  it('is what the reminder job follows: turned off on the privacy page, no reminder e-mail', async () => {
    const de = await sessionOf(await demoMember(t.db, 'de'), 'Demo-2026!');
    const forecast = (
      await call(de, { url: apiPaths.loyaltyExpiryForecast(de.customer.id) })
    ).json<LoyaltyExpiryForecast>();
    // The day before the nearest expiry: its 7-day reminder is due.
    const dayBefore = new Date(Date.parse(forecast.nextExpiry!.date) - 86_400_000);
    const job = createExpiryReminders({
      db: t.db,
      sender: createMessageSender({ db: t.db, log: t.app.log, from: 'no-reply@roadpass.example' }),
      texts: await loadMessageTexts(t.config.contentDir),
      publicUrl: t.config.publicUrl,
      days: t.config.loyaltyReminderDays,
    });
    const mails = () =>
      t.db
        .selectFrom('outbox')
        .select('body')
        .where('customer_id', '=', de.customer.id)
        .where('kind', '=', 'points-expiry')
        .execute();

    await putReminders(de, de.customer.id, { pointsReminders: false });
    await job.run(dayBefore);
    expect(await mails()).toHaveLength(0);

    await putReminders(de, de.customer.id, { pointsReminders: true });
    await job.run(dayBefore);
    const sent = await mails();
    expect(sent.length).toBeGreaterThanOrEqual(1);
    expect(sent.map((m) => m.body).join('\n')).toContain('/customer/loyalty-ui/status?locale=de-DE');
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiPaths,
  type ApiErrorBody,
  type LoyaltyEventBatchResult,
  type LoyaltyEventInput,
} from '@roadpass/contracts';
import { createTestApp, type TestApp } from '../../testing/test-app.js';
import { signIn } from '../../testing/sign-in.js';
import { createTestCustomer } from '../../testing/loyalty-members.js';
import { requestServiceToken, serviceToken } from '../../testing/service-token.js';
import { serviceClientSecret } from './service-client.js';
import { loadLoyaltyContent } from '../content/loyalty-content.js';
import { createCustomerRepository } from '../customers/customer-repository.js';
import { addMonths } from './loyalty-rules.js';
import { createLoyaltyService, type LoyaltyService } from './loyalty-service.js';

let t: TestApp;
let token: string;
let service: LoyaltyService;

beforeAll(async () => {
  t = await createTestApp();
  token = await serviceToken(t.app, t.db, t.config);
  const content = await loadLoyaltyContent(t.config.contentDir);
  service = createLoyaltyService({ db: t.db, customers: createCustomerRepository(t.db), content });
});
afterAll(() => t?.close());

/** Sends a batch with the service token, another bearer token, or (null) none. */
const send = (body: unknown, bearer: string | null = token) =>
  t.app.inject({
    method: 'POST',
    url: apiPaths.internalLoyaltyEvents,
    headers: bearer ? { authorization: `Bearer ${bearer}` } : {},
    payload: body as object,
  });

/** The secret the test app's service client was given (generated, outside production). */
const serviceClientSecretOf = (app: TestApp) => serviceClientSecret(app.db, app.config);

const rental = (customerId: string, sourceId: string, points = 120): LoyaltyEventInput => ({
  sourceId,
  customerId,
  type: 'rental-completed',
  points,
});

describe('the service client', () => {
  it('gets a JWT for the internal API with the loyalty:events scope through client credentials', async () => {
    const res = await requestServiceToken(t.app, t.db, t.config);
    expect(res.statusCode).toBe(200);
    const body = res.json<{ access_token: string; token_type: string; scope: string }>();
    expect(body.scope).toBe('loyalty:events');
    const claims = JSON.parse(
      Buffer.from(body.access_token.split('.')[1]!, 'base64url').toString(),
    ) as Record<string, unknown>;
    expect(claims).toMatchObject({
      aud: t.config.loyaltyAudience,
      client_id: 'rental-system',
      scope: 'loyalty:events',
    });
  });

  it('is refused with a wrong secret, and cannot get a customer API token', async () => {
    expect((await requestServiceToken(t.app, t.db, t.config, { secret: 'x'.repeat(43) })).statusCode).toBe(
      401,
    );
    const customerApi = await requestServiceToken(t.app, t.db, t.config, {
      resource: 'urn:roadpass:customer-api',
    });
    expect(customerApi.statusCode).toBe(400);
    expect(customerApi.json<{ error: string }>().error).toBe('invalid_target');
  });
});

describe('POST /api/internal/loyalty/events', () => {
  it('records events and explains each outcome', async () => {
    const member = await createTestCustomer(t.db);
    const res = await send({
      events: [rental(member.id, 'rental-1001'), { ...rental(member.id, 'bonus-7', 30), type: 'bonus' }],
    });
    expect(res.statusCode).toBe(200);
    const result = res.json<LoyaltyEventBatchResult>();
    expect(result).toMatchObject({ recorded: 2, duplicates: 0, refused: 0 });
    expect(result.outcomes[0]).toMatchObject({ sourceId: 'rental-1001', status: 'recorded', points: 120 });
    expect(result.outcomes[1]).toMatchObject({ status: 'recorded', points: 150, tier: 'sky-blue' });
    expect(result.outcomes[1]!.message).toMatch(/recorded 30 points \(bonus\); balance 150/);
    expect((await service.tierDetails(member.id)).points).toBe(150);
  });

  it('reports an event it already has as a duplicate and counts it once', async () => {
    const member = await createTestCustomer(t.db);
    await send({ events: [rental(member.id, 'rental-2002')] });
    const again = (
      await send({ events: [rental(member.id, 'rental-2002')] })
    ).json<LoyaltyEventBatchResult>();
    expect(again).toMatchObject({ recorded: 0, duplicates: 1 });
    expect(again.outcomes[0]!.status).toBe('duplicate');
    expect((await service.tierDetails(member.id)).points).toBe(120);
  });

  it('refuses events of non-members and unknown customers, one by one, storing nothing for them', async () => {
    const outsider = await createTestCustomer(t.db, { member: false });
    const member = await createTestCustomer(t.db);
    const result = (
      await send({
        events: [
          rental(outsider.id, 'rental-3003'),
          rental('00000000-0000-4000-8000-000000000000', 'rental-3004'),
          rental(member.id, 'rental-3005'),
        ],
      })
    ).json<LoyaltyEventBatchResult>();
    expect(result).toMatchObject({ recorded: 1, refused: 2 });
    expect(result.outcomes.map((o) => o.status)).toEqual(['not-member', 'not-member', 'recorded']);
    expect(result.outcomes[0]!.message).toMatch(/not a member/);
    expect(result.outcomes[1]!.message).toMatch(/unknown customer/);
    const stored = await t.db
      .selectFrom('loyalty_events')
      .select('id')
      .where('customer_id', '=', outsider.id)
      .execute();
    expect(stored).toHaveLength(0);
  });

  it('refuses a customer access token with 403', async () => {
    const { accessToken } = await signIn(t.app, { email: 'demo.de@example.com', password: 'Demo-2026!' });
    const member = await createTestCustomer(t.db);
    const res = await send({ events: [rental(member.id, 'rental-4004')] }, accessToken);
    expect(res.statusCode).toBe(403);
    expect(res.json<ApiErrorBody>().message).toMatch(/customer access token/);
    expect((await service.tierDetails(member.id)).points).toBe(0);
  });

  it('refuses a call without a valid token with 401', async () => {
    expect((await send({ events: [] }, null)).statusCode).toBe(401);
    expect((await send({ events: [] }, `${token.slice(0, -4)}AAAA`)).statusCode).toBe(401);
    expect((await send({ events: [] }, 'not.a.token')).statusCode).toBe(401);
  });

  it.each([
    ['no events', { events: [] }, 'events'],
    ['an unknown field', { events: [], extra: 1 }, 'extra'],
    [
      'a missing sourceId',
      { events: [{ customerId: '00000000-0000-4000-8000-000000000000', type: 'bonus', points: 5 }] },
      'events.0.sourceId',
    ],
    [
      'zero points',
      { events: [{ ...rental('00000000-0000-4000-8000-000000000000', 'a'), points: 0 }] },
      'events.0.points',
    ],
    [
      'points as text',
      { events: [{ ...rental('00000000-0000-4000-8000-000000000000', 'a'), points: '5' }] },
      'events.0.points',
    ],
    [
      'the expiry type',
      { events: [{ ...rental('00000000-0000-4000-8000-000000000000', 'a'), type: 'expiry' }] },
      'events.0.type',
    ],
    ['a customer id that is no uuid', { events: [rental('nobody', 'a')] }, 'events.0.customerId'],
    [
      'a negative bonus',
      { events: [{ ...rental('00000000-0000-4000-8000-000000000000', 'a'), type: 'bonus', points: -5 }] },
      'events.0.points',
    ],
    [
      'an event in the future',
      {
        events: [
          { ...rental('00000000-0000-4000-8000-000000000000', 'a'), occurredAt: '2999-01-01T00:00:00Z' },
        ],
      },
      'events.0.occurredAt',
    ],
  ])('refuses %s with 400 naming the field', async (_what, body, field) => {
    const res = await send(body);
    expect(res.statusCode).toBe(400);
    expect(res.json<ApiErrorBody>().violations?.map((v) => v.field)).toContain(field);
  });

  it('refuses a whole batch when one event breaks the rules, recording none', async () => {
    const member = await createTestCustomer(t.db);
    const old = addMonths(new Date(), -13).toISOString();
    const res = await send({
      events: [rental(member.id, 'rental-5005'), { ...rental(member.id, 'rental-5006'), occurredAt: old }],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json<ApiErrorBody>().violations).toEqual([
      expect.objectContaining({ field: 'events.1.occurredAt', rule: 'notOlderThan12Months' }),
    ]);
    expect((await service.tierDetails(member.id)).points).toBe(0);
  });

  it('takes a batch of 500 events', async () => {
    const member = await createTestCustomer(t.db);
    const events = Array.from({ length: 500 }, (_, i) => ({
      ...rental(member.id, `bulk-${i}`, 1),
      description: 'x'.repeat(200),
    }));
    const res = await send({ events });
    expect(res.statusCode).toBe(200);
    expect(res.json<LoyaltyEventBatchResult>().recorded).toBe(500);
    expect((await send({ events: [...events, rental(member.id, 'one-too-many')] })).statusCode).toBe(400);
  });
});

describe('in production without LOYALTY_CLIENT_SECRET', () => {
  it('registers no service client and answers the endpoint with 401 "not configured"', async () => {
    const production = await createTestApp({ env: 'production', seedDemoData: false }, t.db);
    try {
      const grant = await requestServiceToken(production.app, t.db, production.config, {
        secret: (await serviceClientSecretOf(t)) ?? '',
      });
      expect(grant.statusCode).toBe(401);
      expect(grant.json<{ error: string }>().error).toBe('invalid_client');
      const res = await production.app.inject({
        method: 'POST',
        url: apiPaths.internalLoyaltyEvents,
        headers: { authorization: `Bearer ${token}` },
        payload: { events: [rental('00000000-0000-4000-8000-000000000000', 'rental-prod')] },
      });
      expect(res.statusCode).toBe(401);
      expect(res.json<ApiErrorBody>().message).toMatch(/not configured.*LOYALTY_CLIENT_SECRET/);
    } finally {
      await production.app.close();
    }
  });
});

describe('the expiry timer', () => {
  it('expires due points in the background when switched on', async () => {
    const member = await createTestCustomer(t.db);
    const earned = addMonths(new Date(), -12);
    await service.applyEvent(
      { ...rental(member.id, 'old-rental', 40), occurredAt: earned.toISOString() },
      earned,
    );
    const withTimer = await createTestApp({ loyaltyExpiryIntervalSeconds: 1 }, t.db);
    try {
      let expired = false;
      for (let i = 0; i < 50 && !expired; i += 1) {
        await new Promise((r) => setTimeout(r, 100));
        const row = await t.db
          .selectFrom('loyalty_events')
          .select('points')
          .where('customer_id', '=', member.id)
          .where('type', '=', 'expiry')
          .executeTakeFirst();
        expired = row?.points === -40;
      }
      expect(expired).toBe(true);
    } finally {
      await withTimer.app.close();
    }
  });
});

// Issue 10, finding 8: on PGlite a 500-event batch froze the whole server for seconds (even
// /config.json waited), because the embedded database answers inside this thread and the batch
// never gave the event loop a turn. Counted in event-loop turns, not milliseconds, so it cannot flake.
describe('a large batch and everyone else', () => {
  it('gives the event loop a turn after every event, so other requests are answered meanwhile', async () => {
    const member = await createTestCustomer(t.db, { member: true });
    const events = Array.from({ length: 200 }, (_, i) => rental(member.id, `turns-${i}`, 1));
    let turns = 0;
    let counting = true;
    const tick = () => {
      turns += 1;
      if (counting) setImmediate(tick);
    };
    setImmediate(tick);

    const res = await send({ events });
    counting = false;

    expect(res.statusCode).toBe(200);
    expect(res.json<LoyaltyEventBatchResult>().recorded).toBe(200);
    expect(turns).toBeGreaterThanOrEqual(200);
  });
});

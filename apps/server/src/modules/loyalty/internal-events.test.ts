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
import { loadLoyaltyContent } from '../content/index.js';
import { addMonths } from './loyalty-rules.js';
import { createLoyaltyService, type LoyaltyService } from './loyalty-service.js';

let t: TestApp;
let token: string;
let service: LoyaltyService;

beforeAll(async () => {
  t = await createTestApp();
  token = await serviceToken(t.app, t.db, t.config);
  const content = await loadLoyaltyContent(t.config.contentDir);
  service = createLoyaltyService({ db: t.db, content });
});
afterAll(() => t?.close());

/** Sends a batch to an instance with the service token, another bearer token, or (null) none. */
const sendTo = (app: TestApp['app'], body: unknown, bearer: string | null = token) =>
  app.inject({
    method: 'POST',
    url: apiPaths.internalLoyaltyEvents,
    headers: bearer ? { authorization: `Bearer ${bearer}` } : {},
    payload: body as object,
  });
/** Sends a batch to the suite's instance. */
const send = (body: unknown, bearer: string | null = token) => sendTo(t.app, body, bearer);

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

  it('counts a source id that comes twice in one batch once, and says when it was recorded', async () => {
    const [member, other] = await Promise.all([createTestCustomer(t.db), createTestCustomer(t.db)]);
    const result = (
      await send({
        events: [
          rental(member.id, 'twice', 100),
          rental(member.id, 'between', 10),
          rental(member.id, 'twice', 100),
          // The same source id for another customer is another event.
          rental(other.id, 'twice', 7),
        ],
      })
    ).json<LoyaltyEventBatchResult>();
    expect(result).toMatchObject({ recorded: 3, duplicates: 1, refused: 0 });
    expect(result.outcomes.map((o) => o.status)).toEqual(['recorded', 'recorded', 'duplicate', 'recorded']);
    const stored = await t.db
      .selectFrom('loyalty_events')
      .select('recorded_at')
      .where('customer_id', '=', member.id)
      .where('source_id', '=', 'twice')
      .executeTakeFirstOrThrow();
    expect(result.outcomes[2]).toMatchObject({
      points: 110,
      tier: 'sky-blue',
      message:
        `already recorded on ${stored.recorded_at.toISOString()} (rental-completed, 100 points): ` +
        'nothing changed; balance 110, tier sky-blue',
    });
    expect((await service.tierDetails(member.id)).points).toBe(110);
    expect((await service.history(member.id, 0, 10)).totalElements).toBe(2);
    expect((await service.tierDetails(other.id)).points).toBe(7);
  });

  it('refuses the events of a non-member and an unknown customer in a batch and records the rest around them', async () => {
    const [first, second] = await Promise.all([createTestCustomer(t.db), createTestCustomer(t.db)]);
    const outsider = await createTestCustomer(t.db, { member: false });
    const unknown = '00000000-0000-4000-8000-000000000001';
    const result = (
      await send({
        events: [
          rental(first.id, 'mixed-1', 10),
          rental(outsider.id, 'mixed-2', 10),
          rental(unknown, 'mixed-3', 10),
          rental(second.id, 'mixed-4', 20),
          rental(outsider.id, 'mixed-1', 10),
          rental(first.id, 'mixed-5', 30),
        ],
      })
    ).json<LoyaltyEventBatchResult>();
    expect(result).toMatchObject({ recorded: 3, duplicates: 0, refused: 3 });
    expect(result.outcomes.map((o) => [o.customerId, o.status, o.points, o.tier])).toEqual([
      [first.id, 'recorded', 10, 'sky-blue'],
      [outsider.id, 'not-member', 0, null],
      [unknown, 'not-member', 0, null],
      [second.id, 'recorded', 20, 'sky-blue'],
      [outsider.id, 'not-member', 0, null],
      [first.id, 'recorded', 40, 'sky-blue'],
    ]);
    expect(result.outcomes[1]!.message).toMatch(/not a member/);
    expect(result.outcomes[2]!.message).toBe(`unknown customer ${unknown}: nothing recorded`);
    const accounts = await t.db
      .selectFrom('loyalty_accounts')
      .select(['customer_id', 'event_count'])
      .where('customer_id', 'in', [first.id, second.id, outsider.id])
      .execute();
    expect(Object.fromEntries(accounts.map((a) => [a.customer_id, a.event_count]))).toEqual({
      [first.id]: 2,
      [second.id]: 1,
    });
  });

  it('refuses a customer access token with 403', async () => {
    const { accessToken } = await signIn(t.app, { email: 'demo.de@example.com', password: 'Demo-2026!' });
    const member = await createTestCustomer(t.db);
    const res = await send({ events: [rental(member.id, 'rental-4004')] }, accessToken);
    expect(res.statusCode).toBe(403);
    expect(res.json<ApiErrorBody>().message).toMatch(/customer access token/);
    // RFC 6750 §3.1: the token is valid but not for this: insufficient_scope, naming the scope.
    expect(res.headers['www-authenticate']).toMatch(
      /^Bearer realm="roadpass", error="insufficient_scope", error_description="[^"]+", scope="loyalty:events"$/,
    );
    expect((await service.tierDetails(member.id)).points).toBe(0);
  });

  it('refuses a call without a valid token with 401 and a challenge (RFC 9110 §15.5.2)', async () => {
    const none = await send({ events: [] }, null);
    expect(none.statusCode).toBe(401);
    expect(none.headers['www-authenticate']).toBe('Bearer realm="roadpass"');
    for (const bad of [`${token.slice(0, -4)}AAAA`, 'not.a.token', 'not-a-token']) {
      const res = await send({ events: [] }, bad);
      expect(res.statusCode, bad).toBe(401);
      expect(res.headers['www-authenticate'], bad).toMatch(/^Bearer realm="roadpass", error="invalid_token"/);
    }
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

// Two batches for the same customers at once, on two server instances sharing the database (one
// instance runs its batches one at a time: batch-lane.ts): the transactions meet in the database.
// Each locks its customers' accounts in customer id order, whatever the batch's order, and finds the
// other's events once it holds the locks.
describe('two overlapping batches at once', () => {
  let other: TestApp;
  beforeAll(async () => {
    other = await createTestApp({}, t.db);
  });
  afterAll(() => other?.app.close());

  it('record each event once, lose none and deadlock never', async () => {
    const members = await Promise.all(Array.from({ length: 4 }, () => createTestCustomer(t.db)));
    const ids = members.map((m) => m.id);
    const expected = new Map<string, number>(ids.map((id) => [id, 0]));
    const eventOf = (round: number, k: number) => {
      const customerId = ids[k % ids.length]!;
      return rental(customerId, `overlap-${round}-${k}`, (k % 5) + 1);
    };
    for (let round = 0; round < 3; round += 1) {
      // Events 0–59 in customer order, 30–89 in reverse order: 30 events are in both.
      const a = Array.from({ length: 60 }, (_, k) => eventOf(round, k));
      const b = Array.from({ length: 60 }, (_, j) => eventOf(round, 30 + j)).reverse();
      const [resA, resB] = await Promise.all([send({ events: a }), sendTo(other.app, { events: b })]);
      expect([resA.statusCode, resB.statusCode]).toEqual([200, 200]);
      const [ra, rb] = [resA.json<LoyaltyEventBatchResult>(), resB.json<LoyaltyEventBatchResult>()];
      expect(ra.recorded + rb.recorded).toBe(90);
      expect(ra.duplicates + rb.duplicates).toBe(30);
      for (let k = 0; k < 90; k += 1) {
        const e = eventOf(round, k);
        expected.set(e.customerId, expected.get(e.customerId)! + e.points);
      }
    }
    for (const id of ids) {
      expect((await service.tierDetails(id)).points, id).toBe(expected.get(id));
      const seqs = await t.db
        .selectFrom('loyalty_events')
        .select('seq')
        .where('customer_id', '=', id)
        .orderBy('seq')
        .execute();
      expect(seqs.map((r) => r.seq)).toEqual(Array.from({ length: seqs.length }, (_, i) => i + 1));
      expect(seqs).toHaveLength(Math.ceil((90 - ids.indexOf(id)) / ids.length) * 3);
    }
  });
});

// Batches take turns on an instance (decision 0013): the lane rests after each in proportion to its
// time, and refuses a batch that would wait behind more than LOYALTY_BATCH_QUEUE others.
describe('batches that come while others wait', () => {
  it('are refused with 429, Retry-After and the error shape, recording nothing, and taken when sent again', async () => {
    const strict = await createTestApp({ loyaltyBatchQueue: 0 }, t.db);
    try {
      const member = await createTestCustomer(t.db);
      const batch = (name: string) => ({
        events: Array.from({ length: 20 }, (_, i) => rental(member.id, `${name}-${i}`, 1)),
      });
      const post = (body: object) => sendTo(strict.app, body);
      // Whichever comes second comes while the other runs (or rests, as long as it took): no room.
      const sent = await Promise.all([post(batch('first')), post(batch('second'))]);
      expect(sent.map((res) => res.statusCode).sort()).toEqual([200, 429]);
      const taken = sent.find((res) => res.statusCode === 200)!;
      const refused = sent.find((res) => res.statusCode === 429)!;
      const refusedName = refused === sent[0] ? 'first' : 'second';
      expect(taken.json<LoyaltyEventBatchResult>().recorded).toBe(20);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      const body = refused.json<ApiErrorBody>();
      expect(body).toMatchObject({ status: 429, code: 'too_many_requests' });
      expect(body.message).toMatch(/nothing was recorded/);
      expect(body.violations).toEqual([expect.objectContaining({ field: 'events', rule: 'batchQueue' })]);
      expect((await service.tierDetails(member.id)).points).toBe(20);

      // Sent again once the lane is free, every event of it is recorded (none was before).
      let again = await post(batch(refusedName));
      for (let i = 0; i < 50 && again.statusCode === 429; i += 1) {
        await new Promise((r) => setTimeout(r, 20));
        again = await post(batch(refusedName));
      }
      expect(again.statusCode).toBe(200);
      expect(again.json<LoyaltyEventBatchResult>()).toMatchObject({ recorded: 20, duplicates: 0 });
      expect((await service.tierDetails(member.id)).points).toBe(40);
    } finally {
      await strict.app.close();
    }
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
// /config.json waited), because the embedded database answered inside this thread and a chain of its
// promises never let the event loop poll for I/O. PGlite runs in a worker thread now (decision 0012),
// so each statement of the batch is I/O like PostgreSQL's. Counted in answers, not milliseconds, so
// it cannot flake: with PGlite back in this thread, no request is answered while the batch runs.
describe('a large batch and everyone else', () => {
  it('lets the server answer other requests between the statements of a batch', async () => {
    const members = await Promise.all(Array.from({ length: 5 }, () => createTestCustomer(t.db)));
    const events = Array.from({ length: 500 }, (_, i) => rental(members[i % 5]!.id, `turns-${i}`, 1));
    const origin = await t.app.listen({ port: 0, host: '127.0.0.1' });

    // The route awaits exactly this call (after checking the batch).
    let done = false;
    const batch = service.applyEvents(events).finally(() => {
      done = true;
    });
    let answered = 0;
    const client = async () => {
      while (!done) {
        const res = await fetch(`${origin}/config.json`);
        await res.text();
        if (!done && res.ok) answered += 1;
      }
    };
    const [outcomes] = await Promise.all([batch, client(), client()]);

    expect(outcomes.filter((o) => o.status === 'recorded')).toHaveLength(500);
    expect(answered).toBeGreaterThanOrEqual(3);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoyaltyEventInput } from '@roadpass/contracts';
import type { TestDatabase } from '../../testing/test-database.js';
import { createLoyaltyTestDatabase } from '../../testing/loyalty-database.js';
import { createTestCustomer } from '../../testing/loyalty-members.js';
import type { LoyaltyContent } from '../content/index.js';
import { addMonths } from './loyalty-rules.js';
import type { LoyaltyService } from './loyalty-service.js';

let database: TestDatabase;
let content: LoyaltyContent;
let service: LoyaltyService;

beforeAll(async () => {
  ({ database, content, service } = await createLoyaltyTestDatabase());
});
afterAll(() => database?.drop());

const threshold = (slug: string) => content.tierRules.find((r) => r.slug === slug)!.threshold;
const days = (n: number) => n * 86_400_000;
const later = (date: Date, ms: number) => new Date(date.getTime() + ms);

const event = (
  customerId: string,
  sourceId: string,
  points: number,
  extra: Partial<LoyaltyEventInput> = {},
) =>
  ({
    customerId,
    sourceId,
    points,
    type: points > 0 ? 'rental-completed' : 'adjustment',
    ...extra,
  }) as LoyaltyEventInput;

async function member() {
  return (await createTestCustomer(database.db)).id;
}

describe('recording events', () => {
  it('adds the points and reports balance and tier', async () => {
    const id = await member();
    const outcome = await service.applyEvent(event(id, 'rental-1', 120));
    expect(outcome).toMatchObject({ status: 'recorded', points: 120, tier: 'sky-blue' });
    expect(outcome.message).toMatch(/recorded 120 points .*balance 120/);
    expect(await service.tierDetails(id)).toMatchObject({
      points: 120,
      tier: 'sky-blue',
      tierExpirationDate: null,
    });
  });

  it('counts one source id once', async () => {
    const id = await member();
    await service.applyEvent(event(id, 'rental-dup', 50));
    const again = await service.applyEvent(event(id, 'rental-dup', 50));
    expect(again.status).toBe('duplicate');
    expect(again.message).toMatch(/nothing changed/);
    expect((await service.tierDetails(id)).points).toBe(50);
    expect((await service.history(id, 0, 100)).totalElements).toBe(1);
  });

  it('counts one source id once when it arrives several times at the same moment', async () => {
    const id = await member();
    const outcomes = await Promise.all(
      Array.from({ length: 6 }, () => service.applyEvent(event(id, 'rental-race', 70))),
    );
    expect(outcomes.filter((o) => o.status === 'recorded')).toHaveLength(1);
    expect(outcomes.filter((o) => o.status === 'duplicate')).toHaveLength(5);
    expect((await service.tierDetails(id)).points).toBe(70);
  });

  it('numbers concurrent events of one customer densely, without losing any', async () => {
    const id = await member();
    await Promise.all(
      Array.from({ length: 12 }, (_, i) => service.applyEvent(event(id, `parallel-${i}`, 10))),
    );
    const page = await service.history(id, 0, 100);
    expect(page.totalElements).toBe(12);
    expect((await service.tierDetails(id)).points).toBe(120);
    const seqs = await database.db
      .selectFrom('loyalty_events')
      .select('seq')
      .where('customer_id', '=', id)
      .orderBy('seq')
      .execute();
    expect(seqs.map((r) => r.seq)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
  });

  it('refuses non-members and unknown customers and stores nothing', async () => {
    const outsider = await createTestCustomer(database.db, { member: false });
    const refused = await service.applyEvent(event(outsider.id, 'rental-x', 10));
    expect(refused).toMatchObject({ status: 'not-member', points: 0, tier: null });
    expect(refused.message).toMatch(/not a member/);
    const unknown = await service.applyEvent(event('00000000-0000-4000-8000-000000000000', 'rental-y', 10));
    expect(unknown).toMatchObject({ status: 'not-member' });
    expect(unknown.message).toMatch(/unknown customer/);
    const rows = await database.db
      .selectFrom('loyalty_accounts')
      .select('customer_id')
      .where('customer_id', '=', outsider.id)
      .execute();
    expect(rows).toHaveLength(0);
  });

  it('starts a member who joins at the entry tier with 0 points', async () => {
    const id = await member();
    expect(await service.tierDetails(id)).toMatchObject({
      points: 0,
      tier: 'sky-blue',
      tierExpirationDate: null,
    });
  });
});

describe('tiers', () => {
  it('upgrades when the points of the last 12 months reach a threshold and holds it for 12 months', async () => {
    const id = await member();
    const t0 = new Date('2026-01-10T10:00:00Z');
    await service.applyEvent(
      event(id, 'gold-1', threshold('royal-gold') - 1, { occurredAt: t0.toISOString() }),
      t0,
    );
    expect((await service.tierDetails(id, t0)).tier).toBe('ocean-silver');
    const t1 = later(t0, days(1));
    await service.applyEvent(event(id, 'gold-2', 1, { occurredAt: t1.toISOString() }), t1);
    const details = await service.tierDetails(id, t1);
    expect(details.tier).toBe('royal-gold');
    expect(details.tierExpirationDate).toBe(addMonths(t1, 12).toISOString());

    // A correction takes the points below the threshold: the tier still holds until its date.
    const t2 = later(t1, days(30));
    await service.applyEvent(event(id, 'correction', -2000, { occurredAt: t2.toISOString() }), t2);
    expect(await service.tierDetails(id, t2)).toMatchObject({
      tier: 'royal-gold',
      points: threshold('royal-gold') - 2000,
    });

    // On the expiration date it is computed again from the last 12 months: nothing is left.
    const t3 = addMonths(t1, 12);
    expect(await service.tierDetails(id, t3)).toMatchObject({
      tier: 'sky-blue',
      tierExpirationDate: null,
      points: 0,
    });
  });
});

describe('expiry', () => {
  it('expires points 12 months after they were earned, with an entry in the history', async () => {
    const id = await member();
    const earned = new Date('2026-02-01T09:00:00Z');
    await service.applyEvent(event(id, 'old-rental', 80, { occurredAt: earned.toISOString() }), earned);
    const soon = later(earned, days(100));
    await service.applyEvent(event(id, 'new-rental', 40, { occurredAt: soon.toISOString() }), soon);

    const before = addMonths(earned, 12);
    expect((await service.tierDetails(id, later(before, -1000))).points).toBe(120);
    const page = await service.history(id, 0, 100, later(before, 1000));
    expect(page.totalElements).toBe(3);
    expect(page.content[0]).toMatchObject({ type: 'expiry', points: -80, expirationDate: null });
    expect(page.content.map((e) => e.type)).toEqual(['expiry', 'rental-completed', 'rental-completed']);
    expect((await service.tierDetails(id, later(before, 1000))).points).toBe(40);
    const source = await database.db
      .selectFrom('loyalty_events')
      .select('source_id')
      .where('customer_id', '=', id)
      .where('type', '=', 'expiry')
      .executeTakeFirstOrThrow();
    expect(source.source_id).toMatch(/^expiry:\d+$/);
  });

  it('takes negative adjustments from the oldest points first and expires only what is left of them', async () => {
    const id = await member();
    const t0 = new Date('2026-03-01T00:00:00Z');
    await service.applyEvent(event(id, 'lot-a', 100, { occurredAt: t0.toISOString() }), t0);
    const t1 = later(t0, days(10));
    await service.applyEvent(event(id, 'lot-b', 100, { occurredAt: t1.toISOString() }), t1);
    await service.applyEvent(event(id, 'take-70', -70, { occurredAt: t1.toISOString() }), t1);
    expect((await service.tierDetails(id, t1)).points).toBe(130);

    const lotAExpired = later(addMonths(t0, 12), 1000);
    const totals = await service.expireAll(lotAExpired);
    expect(totals.lots).toBeGreaterThanOrEqual(1);
    const page = await service.history(id, 0, 1, lotAExpired);
    expect(page.content[0]).toMatchObject({ type: 'expiry', points: -30 });
    expect((await service.tierDetails(id, lotAExpired)).points).toBe(100);
  });

  it('never takes the balance below 0', async () => {
    const id = await member();
    await service.applyEvent(event(id, 'small', 25));
    const outcome = await service.applyEvent(event(id, 'big-correction', -500));
    expect(outcome).toMatchObject({ status: 'recorded', points: 0 });
    expect(outcome.message).toMatch(/only 25 points were left/);
    await service.applyEvent(event(id, 'after', 10));
    expect((await service.tierDetails(id)).points).toBe(10);
  });

  it('is idempotent: running it again, or for everyone, expires nothing twice', async () => {
    const id = await member();
    const t0 = new Date('2026-04-01T00:00:00Z');
    await service.applyEvent(event(id, 'once', 60, { occurredAt: t0.toISOString() }), t0);
    const due = later(addMonths(t0, 12), 1000);
    const [first, second] = await Promise.all([
      service.expireCustomer(id, due),
      service.expireCustomer(id, due),
    ]);
    expect(first!.lots + second!.lots).toBe(1);
    await service.expireAll(due);
    expect((await service.expireCustomer(id, due)).lots).toBe(0);
    expect((await service.history(id, 0, 100, due)).totalElements).toBe(2);
  });

  it('keeps every customer’s history dense after expiry', async () => {
    const id = await member();
    const t0 = new Date('2026-01-01T00:00:00Z');
    for (let i = 0; i < 3; i += 1) {
      const at = later(t0, days(i));
      await service.applyEvent(event(id, `dense-${i}`, 10, { occurredAt: at.toISOString() }), at);
    }
    const due = later(addMonths(t0, 12), days(5));
    await service.expireCustomer(id, due);
    const page = await service.history(id, 0, 100, due);
    expect(page.totalElements).toBe(6);
    expect(page.content.filter((e) => e.type === 'expiry')).toHaveLength(3);
  });
});

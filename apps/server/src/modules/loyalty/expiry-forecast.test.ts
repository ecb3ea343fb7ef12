import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoyaltyEventInput } from '@roadpass/contracts';
import type { TestDatabase } from '../../testing/test-database.js';
import { createLoyaltyTestDatabase } from '../../testing/loyalty-database.js';
import { createTestCustomer } from '../../testing/loyalty-members.js';
import type { LoyaltyContent } from '../content/index.js';
import { expiryForecast } from './expiry-forecast.js';
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
const at = (iso: string) => new Date(iso);
const event = (customerId: string, sourceId: string, points: number, occurredAt: Date): LoyaltyEventInput =>
  ({
    customerId,
    sourceId,
    points,
    type: points > 0 ? 'rental-completed' : 'adjustment',
    occurredAt: occurredAt.toISOString(),
  }) as LoyaltyEventInput;

describe('expiry forecast (pure)', () => {
  const now = at('2026-11-26T10:00:00.000Z');

  it('sums the lots by calendar month, this month first, twelve months, empty months with 0', () => {
    const forecast = expiryForecast({
      now,
      lots: [
        { remaining: 100, expiresAt: at('2026-11-28T08:00:00.000Z') },
        { remaining: 40, expiresAt: at('2026-11-30T23:00:00.000Z') },
        { remaining: 850, expiresAt: at('2027-03-01T09:00:00.000Z') },
        { remaining: 5, expiresAt: at('2027-10-31T09:00:00.000Z') },
        // Month 13 (earned today): not in the next twelve months.
        { remaining: 70, expiresAt: at('2027-11-26T09:00:00.000Z') },
        // Spent, or already past: nothing to forecast.
        { remaining: 0, expiresAt: at('2027-01-05T09:00:00.000Z') },
        { remaining: 30, expiresAt: at('2026-11-20T09:00:00.000Z') },
      ],
      tier: 'sky-blue',
      tierExpirationDate: null,
      collectedForTier: 0,
      rules: content.tierRules,
    });
    expect(forecast.months).toHaveLength(12);
    expect(forecast.months[0]).toEqual({ month: '2026-11', points: 140 });
    expect(forecast.months[1]).toEqual({ month: '2026-12', points: 0 });
    expect(forecast.months[4]).toEqual({ month: '2027-03', points: 850 });
    expect(forecast.months[11]).toEqual({ month: '2027-10', points: 5 });
    expect(forecast.months.reduce((sum, m) => sum + m.points, 0)).toBe(995);
    expect(forecast.nextExpiry).toEqual({ points: 100, date: '2026-11-28T08:00:00.000Z' });
    expect(forecast.tierKeep).toBeNull();
  });

  it('puts every lot of the nearest expiry day into the sentence', () => {
    const forecast = expiryForecast({
      now,
      lots: [
        { remaining: 600, expiresAt: at('2027-03-01T09:00:00.000Z') },
        { remaining: 250, expiresAt: at('2027-03-01T17:30:00.000Z') },
        { remaining: 90, expiresAt: at('2027-03-02T07:00:00.000Z') },
      ],
      tier: 'sky-blue',
      tierExpirationDate: null,
      collectedForTier: 0,
      rules: content.tierRules,
    });
    expect(forecast.nextExpiry).toEqual({ points: 850, date: '2027-03-01T09:00:00.000Z' });
  });

  it('says how many points keep a tier at its next computation, and 0 once there are enough', () => {
    const base = {
      now,
      lots: [],
      tier: 'royal-gold' as const,
      tierExpirationDate: at('2027-05-31T12:00:00.000Z'),
      rules: content.tierRules,
    };
    const gold = threshold('royal-gold');
    expect(expiryForecast({ ...base, collectedForTier: gold - 500 }).tierKeep).toEqual({
      tier: 'royal-gold',
      date: '2027-05-31T12:00:00.000Z',
      pointsNeeded: 500,
    });
    expect(expiryForecast({ ...base, collectedForTier: gold + 20 }).tierKeep?.pointsNeeded).toBe(0);
    expect(expiryForecast({ ...base, collectedForTier: 0 }).nextExpiry).toBeNull();
  });
});

describe('expiry forecast of a member (ledger)', () => {
  it("follows the ledger's oldest-first spending: an adjustment takes from the lot that expires first", async () => {
    const id = (await createTestCustomer(database.db)).id;
    const now = at('2026-11-26T10:00:00.000Z');
    await service.applyEvent(event(id, 'r1', 300, at('2026-01-10T10:00:00.000Z')), now);
    await service.applyEvent(event(id, 'r2', 200, at('2026-03-15T10:00:00.000Z')), now);
    await service.applyEvent(event(id, 'r3', 100, at('2026-06-20T10:00:00.000Z')), now);
    // 350 used: all of January's lot and 50 of March's.
    await service.applyEvent(event(id, 'fix', -350, at('2026-11-01T10:00:00.000Z')), now);

    const forecast = await service.expiryForecast(id, { now });
    const month = (key: string) => forecast.months.find((m) => m.month === key)?.points;
    expect(month('2027-01')).toBe(0);
    expect(month('2027-03')).toBe(150);
    expect(month('2027-06')).toBe(100);
    expect(forecast.nextExpiry).toEqual({ points: 150, date: '2027-03-15T10:00:00.000Z' });
    expect(forecast.months.reduce((sum, m) => sum + m.points, 0)).toBe(
      (await service.tierDetails(id, now)).points,
    );
  });

  it('moves with the clock: lots past their date are expired first and leave the forecast', async () => {
    const id = (await createTestCustomer(database.db)).id;
    const earned = at('2026-02-10T10:00:00.000Z');
    await service.applyEvent(event(id, 'a', 120, earned), at('2026-02-11T00:00:00.000Z'));
    await service.applyEvent(
      event(id, 'b', 80, at('2026-04-10T10:00:00.000Z')),
      at('2026-04-11T00:00:00.000Z'),
    );
    const later = addMonths(earned, 12);
    later.setUTCDate(later.getUTCDate() + 1);
    const forecast = await service.expiryForecast(id, { now: later });
    expect(forecast.months[0]!.month).toBe('2027-02');
    expect(forecast.months.reduce((sum, m) => sum + m.points, 0)).toBe(80);
    expect(forecast.nextExpiry).toEqual({ points: 80, date: '2027-04-10T10:00:00.000Z' });
  });

  it('counts the points of the 12 months before the tier date towards keeping the tier', async () => {
    const id = (await createTestCustomer(database.db)).id;
    const gold = threshold('royal-gold');
    // Reaches royal gold on 10 Jan 2026: the tier holds until 10 Jan 2027, then counts the points
    // earned after 10 Jan 2026. The January points themselves do not count then (exclusive start).
    const reached = at('2026-01-10T10:00:00.000Z');
    await service.applyEvent(event(id, 'big', gold, reached), at('2026-01-10T11:00:00.000Z'));
    await service.applyEvent(
      event(id, 'later', 400, at('2026-05-02T10:00:00.000Z')),
      at('2026-05-03T00:00:00.000Z'),
    );
    const now = at('2026-11-26T10:00:00.000Z');
    const forecast = await service.expiryForecast(id, { now });
    expect(forecast.tierKeep).toEqual({
      tier: 'royal-gold',
      date: addMonths(at('2026-01-10T11:00:00.000Z'), 12).toISOString(),
      pointsNeeded: gold - 400,
    });
  });

  it('has nothing to keep at the entry tier and nothing to forecast without points', async () => {
    const id = (await createTestCustomer(database.db)).id;
    const forecast = await service.expiryForecast(id);
    expect(forecast.tierKeep).toBeNull();
    expect(forecast.nextExpiry).toBeNull();
    expect(forecast.months.every((m) => m.points === 0)).toBe(true);
  });
});

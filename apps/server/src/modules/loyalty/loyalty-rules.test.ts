import { describe, expect, it } from 'vitest';
import type { TierRule } from '../content/index.js';
import {
  addMonths,
  incomingEventViolations,
  nextTierState,
  takeOldestFirst,
  tierForPoints,
  validityEnd,
  type Lot,
  type TierState,
} from './loyalty-rules.js';

const rules: TierRule[] = [
  { slug: 'sky-blue', threshold: 0 },
  { slug: 'ocean-silver', threshold: 1000 },
  { slug: 'royal-gold', threshold: 3000 },
  { slug: 'sapphire-diamond', threshold: 6000 },
];
const at = (iso: string) => new Date(iso);
const skyBlue: TierState = { tier: 'sky-blue', tierExpirationDate: null };

describe('addMonths', () => {
  it('moves by calendar months in UTC', () => {
    expect(addMonths(at('2026-03-15T10:30:00Z'), 12).toISOString()).toBe('2027-03-15T10:30:00.000Z');
    expect(addMonths(at('2026-03-15T10:30:00Z'), -12).toISOString()).toBe('2025-03-15T10:30:00.000Z');
  });

  it('clamps to the last day of a shorter month', () => {
    expect(addMonths(at('2028-02-29T12:00:00Z'), 12).toISOString()).toBe('2029-02-28T12:00:00.000Z');
    expect(addMonths(at('2026-01-31T00:00:00Z'), 1).toISOString()).toBe('2026-02-28T00:00:00.000Z');
  });
});

describe('tier thresholds', () => {
  it.each([
    [0, 'sky-blue'],
    [999, 'sky-blue'],
    [1000, 'ocean-silver'],
    [2999, 'ocean-silver'],
    [3000, 'royal-gold'],
    [5999, 'royal-gold'],
    [6000, 'sapphire-diamond'],
    [1_000_000, 'sapphire-diamond'],
    [-50, 'sky-blue'],
  ])('%i points collected reach %s', (points, tier) => {
    expect(tierForPoints(points, rules)).toBe(tier);
  });

  it('takes the thresholds from the content, in any order', () => {
    const other: TierRule[] = [
      { slug: 'royal-gold', threshold: 500 },
      { slug: 'sky-blue', threshold: 0 },
      { slug: 'ocean-silver', threshold: 100 },
    ];
    expect(tierForPoints(99, other)).toBe('sky-blue');
    expect(tierForPoints(100, other)).toBe('ocean-silver');
    expect(tierForPoints(500, other)).toBe('royal-gold');
  });
});

describe('tier state', () => {
  const now = at('2026-05-10T08:00:00Z');

  it('upgrades at once and holds the new tier for 12 months', () => {
    const next = nextTierState(skyBlue, 3000, now, rules);
    expect(next).toEqual({
      tier: 'royal-gold',
      tierExpirationDate: at('2027-05-10T08:00:00Z'),
      change: 'upgraded',
    });
  });

  it('resets the 12 months on a further upgrade', () => {
    const gold: TierState = { tier: 'royal-gold', tierExpirationDate: at('2026-12-01T00:00:00Z') };
    const next = nextTierState(gold, 6000, now, rules);
    expect(next.tier).toBe('sapphire-diamond');
    expect(next.tierExpirationDate).toEqual(validityEnd(now));
  });

  it('keeps the entry tier without an expiration date', () => {
    expect(nextTierState(skyBlue, 999, now, rules)).toEqual({ ...skyBlue, change: 'unchanged' });
  });

  it('holds a tier until its expiration date, even with fewer points, and reaching it again does not extend it', () => {
    const gold: TierState = { tier: 'royal-gold', tierExpirationDate: at('2026-05-10T08:00:01Z') };
    expect(nextTierState(gold, 10, now, rules)).toEqual({ ...gold, change: 'unchanged' });
    expect(nextTierState(gold, 3500, now, rules)).toEqual({ ...gold, change: 'unchanged' });
  });

  it('computes the tier again on its expiration date: it may go down, and holds another 12 months', () => {
    const gold: TierState = { tier: 'royal-gold', tierExpirationDate: now };
    expect(nextTierState(gold, 1500, now, rules)).toEqual({
      tier: 'ocean-silver',
      tierExpirationDate: at('2027-05-10T08:00:00Z'),
      change: 'recomputed',
    });
    expect(nextTierState(gold, 3000, now, rules)).toEqual({
      tier: 'royal-gold',
      tierExpirationDate: at('2027-05-10T08:00:00Z'),
      change: 'recomputed',
    });
  });

  it('falls back to the entry tier, which has no expiration date', () => {
    const silver: TierState = { tier: 'ocean-silver', tierExpirationDate: at('2026-01-01T00:00:00Z') };
    expect(nextTierState(silver, 0, now, rules)).toEqual({
      tier: 'sky-blue',
      tierExpirationDate: null,
      change: 'recomputed',
    });
  });
});

describe('taking points oldest first (FIFO)', () => {
  const lots: Lot[] = [
    { id: 'new', remaining: 100, expiresAt: at('2027-04-01T00:00:00Z') },
    { id: 'old', remaining: 30, expiresAt: at('2027-01-01T00:00:00Z') },
    { id: 'middle', remaining: 50, expiresAt: at('2027-02-01T00:00:00Z') },
  ];

  it('empties the lots that expire first', () => {
    expect(takeOldestFirst(lots, 60)).toEqual({
      taken: 60,
      changed: [
        { id: 'old', remaining: 0 },
        { id: 'middle', remaining: 20 },
      ],
    });
  });

  it('never takes more than there is: the balance stops at 0', () => {
    const result = takeOldestFirst(lots, 1000);
    expect(result.taken).toBe(180);
    expect(result.changed.every((lot) => lot.remaining === 0)).toBe(true);
  });

  it('skips lots with nothing left and takes nothing for 0', () => {
    expect(takeOldestFirst([{ ...lots[1]!, remaining: 0 }, lots[0]!], 10).changed).toEqual([
      { id: 'new', remaining: 90 },
    ]);
    expect(takeOldestFirst(lots, 0)).toEqual({ taken: 0, changed: [] });
  });

  it('expires a lot 12 months after its points were earned', () => {
    expect(validityEnd(at('2026-05-10T08:00:00Z'))).toEqual(at('2027-05-10T08:00:00Z'));
  });
});

describe('incoming event rules', () => {
  const now = at('2026-05-10T08:00:00Z');

  it('accepts a rental within the last 12 months', () => {
    expect(
      incomingEventViolations(
        { type: 'rental-completed', points: 10, occurredAt: '2025-05-10T08:00:00Z' },
        now,
      ),
    ).toEqual([]);
  });

  it('allows negative points only for adjustments', () => {
    expect(incomingEventViolations({ type: 'adjustment', points: -10 }, now)).toEqual([]);
    expect(incomingEventViolations({ type: 'bonus', points: -10 }, now, 'events.2')).toEqual([
      expect.objectContaining({ field: 'events.2.points', rule: 'exclusiveMinimum' }),
    ]);
  });

  it('refuses zero points for every type, with a message that says so', () => {
    for (const type of ['rental-completed', 'bonus', 'adjustment'] as const) {
      expect(incomingEventViolations({ type, points: 0 }, now)).toEqual([
        {
          field: 'points',
          rule: 'notZero',
          message: 'points must not be 0 (an event without points changes nothing)',
        },
      ]);
    }
  });

  it('refuses events in the future (beyond a minute of clock skew) and older than 12 months', () => {
    expect(
      incomingEventViolations({ type: 'bonus', points: 1, occurredAt: '2026-05-10T08:00:30Z' }, now),
    ).toEqual([]);
    expect(
      incomingEventViolations({ type: 'bonus', points: 1, occurredAt: '2026-05-10T08:02:00Z' }, now)[0],
    ).toMatchObject({ field: 'occurredAt', rule: 'notInFuture' });
    expect(
      incomingEventViolations({ type: 'bonus', points: 1, occurredAt: '2025-05-10T07:59:59Z' }, now)[0],
    ).toMatchObject({ field: 'occurredAt', rule: 'notOlderThan12Months' });
  });
});

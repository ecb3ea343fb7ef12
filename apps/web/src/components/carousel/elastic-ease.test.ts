import { describe, expect, it } from 'vitest';
import { carouselTiming } from './carousel-timing';
import { elasticOut } from './elastic-ease';

const settle = elasticOut(carouselTiming.elasticAmplitude, carouselTiming.elasticPeriod);
const samples = Array.from({ length: 1001 }, (_, i) => i / 1000);

describe('elasticOut (GSAP elastic.out)', () => {
  it('starts at 0 and ends exactly at 1', () => {
    expect(settle(0)).toBe(0);
    expect(settle(1)).toBe(1);
    expect(settle(-0.5)).toBe(0);
    expect(settle(1.5)).toBe(1);
  });

  it('matches GSAP elastic.out(0.5, 0.8) at sample points', () => {
    // GSAP: amplitude < 1 stretches the period to 0.8 / 0.5 = 1.6, so the curve first reaches 1 at
    // p = 1.6 / 4 = 0.4 and is 1 + 2^-10p · sin((p − 0.4) · 2π / 1.6) elsewhere.
    expect(settle(0.1)).toBeCloseTo(0.53806, 5);
    expect(settle(0.4)).toBeCloseTo(1, 10);
    expect(settle(0.5)).toBeCloseTo(1.01196, 5);
    expect(settle(0.8)).toBeCloseTo(1.0039, 4);
  });

  it('rises steadily, overshoots a little once and rings out towards 1', () => {
    const firstCrossing = samples.findIndex((p) => settle(p) >= 1);
    const rising = samples.slice(0, firstCrossing).map(settle);
    expect(rising.every((value, i) => i === 0 || value > rising[i - 1]!)).toBe(true);

    const peak = Math.max(...samples.map(settle));
    expect(peak).toBeGreaterThan(1.01);
    expect(peak).toBeLessThan(1.02);
    expect(Math.abs(settle(0.95) - 1)).toBeLessThan(0.002);
  });

  it('swings wider with an amplitude above 1', () => {
    const wide = elasticOut(2, 0.3);
    expect(Math.max(...samples.map(wide))).toBeGreaterThan(1.3);
    expect(wide(0)).toBe(0);
  });

  it('rejects an amplitude or period that is not positive', () => {
    expect(() => elasticOut(0, 0.8)).toThrow(RangeError);
    expect(() => elasticOut(0.5, -1)).toThrow(RangeError);
  });
});

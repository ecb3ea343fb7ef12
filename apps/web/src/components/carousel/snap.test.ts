import { describe, expect, it } from 'vitest';
import { carouselTiming } from './carousel-timing';
import { clampCard, nearestCard, snapTarget } from './snap';

// Four cards 310 px apart: the container's offset for card i is -310 · i.
const cardOffsets = [0, -310, -620, -930];

describe('snapTarget', () => {
  it.each([
    { from: 1, movement: -69, expected: 1, why: 'a drag under 70 px to the left stays' },
    { from: 1, movement: 69, expected: 1, why: 'a drag under 70 px to the right stays' },
    { from: 1, movement: -70, expected: 2, why: 'exactly 70 px to the left moves to the next card' },
    { from: 1, movement: 70, expected: 0, why: '70 px to the right moves to the previous card' },
    { from: 1, movement: -500, expected: 2, why: 'a long drag still moves one card' },
    { from: 0, movement: 200, expected: 0, why: 'no card before the first' },
    { from: 3, movement: -200, expected: 3, why: 'no card after the last' },
    { from: 0, movement: 0, expected: 0, why: 'no movement stays' },
  ])('$why', ({ from, movement, expected }) => {
    expect(snapTarget({ cardOffsets, startOffset: cardOffsets[from]!, movement })).toBe(expected);
  });

  it('uses the 70 px threshold of docs/product/constants.md#business-constants by default', () => {
    expect(carouselTiming.swipeThreshold).toBe(70);
  });

  it('counts from the card nearest to where a moving carousel was grabbed', () => {
    expect(snapTarget({ cardOffsets, startOffset: -400, movement: -80 })).toBe(2);
    expect(snapTarget({ cardOffsets, startOffset: -500, movement: 10 })).toBe(2);
  });

  it('stays when the pointer is flicked back against the drag at release', () => {
    expect(snapTarget({ cardOffsets, startOffset: 0, movement: -90, velocity: 1.5 })).toBe(0);
    expect(snapTarget({ cardOffsets, startOffset: 0, movement: -90, velocity: -1.5 })).toBe(1);
    expect(snapTarget({ cardOffsets, startOffset: 0, movement: -90, velocity: 0.3 })).toBe(1);
  });

  it('stays on card 0 without cards', () => {
    expect(snapTarget({ cardOffsets: [], startOffset: 0, movement: -100 })).toBe(0);
  });
});

describe('nearestCard and clampCard', () => {
  it('finds the nearest settled position', () => {
    expect(nearestCard(cardOffsets, -160)).toBe(1);
    expect(nearestCard(cardOffsets, 50)).toBe(0);
    expect(nearestCard(cardOffsets, -2000)).toBe(3);
  });

  it('keeps an index between the first and the last card', () => {
    expect(clampCard(-1, 4)).toBe(0);
    expect(clampCard(9, 4)).toBe(3);
    expect(clampCard(2, 0)).toBe(0);
  });
});

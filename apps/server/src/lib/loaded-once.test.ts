import { describe, expect, it } from 'vitest';
import { loadedOnce } from './loaded-once.js';

describe('loadedOnce', () => {
  it('loads once for every caller, together or later', async () => {
    let loads = 0;
    const value = loadedOnce(async () => ++loads);
    expect(await Promise.all([value(), value()])).toEqual([1, 1]);
    expect(await value()).toBe(1);
    expect(loads).toBe(1);
  });

  it('loads again after a failed load, and keeps the value that came', async () => {
    let loads = 0;
    const value = loadedOnce(async () => {
      loads += 1;
      if (loads === 1) throw new Error('connect ECONNREFUSED');
      return 'key';
    });
    await expect(value()).rejects.toThrow('ECONNREFUSED');
    expect(await value()).toBe('key');
    expect(await value()).toBe('key');
    expect(loads).toBe(2);
  });
});

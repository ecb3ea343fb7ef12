import { describe, expect, it } from 'vitest';
import { InvalidatingCache } from './invalidating-cache.js';

/** A load the test finishes by hand, counting how often the database would have been read. */
function manualLoads() {
  const waiting: ((value: string) => void)[] = [];
  let reads = 0;
  const load = () => {
    reads += 1;
    return new Promise<{ value: string }>((resolve) => waiting.push((value) => resolve({ value })));
  };
  return { load, finish: (value: string) => waiting.shift()!(value), reads: () => reads };
}

describe('the invalidating read cache', () => {
  it('serves a loaded value until the key is invalidated, then loads again', async () => {
    const cache = new InvalidatingCache<string>({ maxKeys: 10 });
    let version = 1;
    const load = async () => ({ value: `v${version}` });
    expect(await cache.get('a', 'x', load)).toBe('v1');
    version = 2;
    expect(await cache.get('a', 'x', load)).toBe('v1');
    cache.invalidate('a');
    expect(await cache.get('a', 'x', load)).toBe('v2');
  });

  it('never stores what a load started before an invalidation read', async () => {
    const cache = new InvalidatingCache<string>({ maxKeys: 10 });
    const loads = manualLoads();
    const before = cache.get('a', 'x', loads.load);
    cache.invalidate('a'); // a write committed while the read was under way
    loads.finish('stale');
    expect(await before).toBe('stale'); // answered (it was concurrent with the write) …
    const after = cache.get('a', 'x', loads.load); // … but not kept: the next call reads again
    loads.finish('fresh');
    expect(await after).toBe('fresh');
    expect(loads.reads()).toBe(2);
    expect(await cache.get('a', 'x', loads.load)).toBe('fresh');
  });

  it('never stores what a load started before a clear read, and shares loads under way', async () => {
    const cache = new InvalidatingCache<string>({ maxKeys: 10 });
    const loads = manualLoads();
    const first = cache.get('a', 'x', loads.load);
    const second = cache.get('a', 'x', loads.load);
    cache.clear();
    loads.finish('stale');
    expect(await Promise.all([first, second])).toEqual(['stale', 'stale']);
    expect(loads.reads()).toBe(1);
    expect(cache.size).toBe(0);
  });

  it('drops a customer’s every value at once', async () => {
    const cache = new InvalidatingCache<string>({ maxKeys: 10 });
    await cache.get('a', 'x', async () => ({ value: 'x' }));
    await cache.get('a', 'y', async () => ({ value: 'y' }));
    await cache.get('b', 'x', async () => ({ value: 'b' }));
    cache.invalidate('a');
    expect(await cache.get('a', 'y', async () => ({ value: 'y2' }))).toBe('y2');
    expect(await cache.get('b', 'x', async () => ({ value: 'b2' }))).toBe('b');
  });

  it('serves a value only until its validUntil', async () => {
    const cache = new InvalidatingCache<string>({ maxKeys: 10 });
    await cache.get('a', 'x', async () => ({ value: 'old', validUntil: 1000 }), 0);
    expect(await cache.get('a', 'x', async () => ({ value: 'new' }), 999)).toBe('old');
    expect(await cache.get('a', 'x', async () => ({ value: 'new' }), 1000)).toBe('new');
  });

  it('serves and keeps nothing while switched off, and starts empty when switched on', async () => {
    const cache = new InvalidatingCache<string>({ maxKeys: 10 });
    await cache.get('a', 'x', async () => ({ value: 'cached' }));
    cache.enabled = false;
    expect(cache.size).toBe(0);
    expect(await cache.get('a', 'x', async () => ({ value: 'read' }))).toBe('read');
    expect(cache.size).toBe(0);
    cache.enabled = true;
    expect(await cache.get('a', 'x', async () => ({ value: 'again' }))).toBe('again');
  });

  it('forgets a failed load', async () => {
    const cache = new InvalidatingCache<string>({ maxKeys: 10 });
    await expect(cache.get('a', 'x', () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await cache.get('a', 'x', async () => ({ value: 'up' }))).toBe('up');
  });

  it('keeps at most maxKeys customers and maxWeight in all, the oldest going first', async () => {
    const cache = new InvalidatingCache<string>({ maxKeys: 2, maxWeight: 10, weigh: (v) => v.length });
    for (const key of ['a', 'b', 'c']) await cache.get(key, 'x', async () => ({ value: key }));
    expect(cache.size).toBe(2);
    expect(await cache.get('a', 'x', async () => ({ value: 'a2' }))).toBe('a2'); // a went first
    await cache.get('d', 'x', async () => ({ value: '12345678' })); // weight 2 + 8 > 10
    expect(cache.size).toBeLessThanOrEqual(2);
    expect(await cache.get('d', 'x', async () => ({ value: 'reloaded' }))).toBe('12345678');
  });
});

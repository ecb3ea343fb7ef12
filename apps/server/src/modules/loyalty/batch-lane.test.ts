import { describe, expect, it } from 'vitest';
import { BatchLaneFull, createBatchLane, type BatchLaneOptions } from './batch-lane.js';

/**
 * A lane on a clock the test moves: `sleeps` are the rests the lane asked for, each ended by the test
 * (`endRest`), and a batch is a promise the test settles (`batch.finish`/`batch.fail`) after moving
 * the clock by the time it "took".
 */
function testLane(options: Partial<BatchLaneOptions> = {}) {
  let clock = 0;
  const sleeps: { ms: number; end: () => void }[] = [];
  const started: string[] = [];
  const lane = createBatchLane({
    share: 0.5,
    maxWaiting: 8,
    now: () => clock,
    sleep: (ms) => new Promise<void>((end) => sleeps.push({ ms, end })),
    ...options,
  });
  const batch = (name: string) => {
    let finish!: (tookMs: number) => void;
    let fail!: (tookMs: number, error: Error) => void;
    const result = lane.run(
      () =>
        new Promise<string>((resolve, reject) => {
          started.push(name);
          finish = (tookMs) => {
            clock += tookMs;
            resolve(name);
          };
          fail = (tookMs, error) => {
            clock += tookMs;
            reject(error);
          };
        }),
    );
    return {
      result,
      finish: (tookMs: number) => finish(tookMs),
      fail: (tookMs: number, error: Error) => fail(tookMs, error),
    };
  };
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
  return { lane, batch, started, sleeps, settle };
}

describe('the loyalty event batch lane', () => {
  it('starts a batch at once on an idle lane, and asks for no rest when batches may take all the time', async () => {
    const { batch, started, sleeps, settle } = testLane({ share: 1 });
    const a = batch('a');
    await settle();
    expect(started).toEqual(['a']);
    a.finish(100);
    await expect(a.result).resolves.toBe('a');
    const b = batch('b');
    await settle();
    expect(started).toEqual(['a', 'b']);
    b.finish(100);
    await b.result;
    expect(sleeps).toEqual([]);
  });

  it('runs batches one at a time, in the order they came, resting as long as each took at half the time', async () => {
    const { lane, batch, started, sleeps, settle } = testLane({ share: 0.5 });
    const a = batch('a');
    const b = batch('b');
    const c = batch('c');
    await settle();
    expect(started).toEqual(['a']);
    expect(lane.waiting).toBe(2);

    a.finish(120);
    await expect(a.result).resolves.toBe('a');
    await settle();
    // a's answer goes out at once; b waits for a's rest.
    expect(started).toEqual(['a']);
    expect(sleeps.map((s) => s.ms)).toEqual([120]);
    sleeps[0]!.end();
    await settle();
    expect(started).toEqual(['a', 'b']);
    expect(lane.waiting).toBe(1);

    b.finish(30);
    await b.result;
    await settle();
    expect(sleeps.map((s) => s.ms)).toEqual([120, 30]);
    sleeps[1]!.end();
    await settle();
    expect(started).toEqual(['a', 'b', 'c']);
    c.finish(10);
    await c.result;
  });

  it('rests three times as long as a batch took when batches may take a quarter of the time', async () => {
    const { batch, sleeps, settle } = testLane({ share: 0.25 });
    const a = batch('a');
    await settle();
    a.finish(40);
    await a.result;
    expect(sleeps.map((s) => s.ms)).toEqual([120]);
  });

  it('rests after a failed batch too, gives its error to its sender only, and runs the next', async () => {
    const { batch, started, sleeps, settle } = testLane();
    const a = batch('a');
    const b = batch('b');
    await settle();
    a.fail(50, new Error('connection lost'));
    await expect(a.result).rejects.toThrow('connection lost');
    await settle();
    expect(sleeps.map((s) => s.ms)).toEqual([50]);
    sleeps[0]!.end();
    await settle();
    expect(started).toEqual(['a', 'b']);
    b.finish(5);
    await expect(b.result).resolves.toBe('b');
  });

  it('refuses a batch that would wait behind too many, with the seconds until there is room', async () => {
    const { lane, batch, started, sleeps, settle } = testLane({ maxWaiting: 1 });
    const a = batch('a');
    await settle();
    a.finish(900);
    await a.result;
    // a rests for 900 ms; b waits; c would be the second waiting.
    const b = batch('b');
    const c = batch('c');
    const refused = await c.result.then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(BatchLaneFull);
    // b's turn (a's rest) and c's own: two turns of 1.8 s.
    expect((refused as BatchLaneFull).retryAfterSeconds).toBe(4);
    expect(lane.waiting).toBe(1);

    sleeps[0]!.end();
    await settle();
    expect(started).toEqual(['a', 'b']);
    b.finish(10);
    await b.result;
    sleeps[1]!.end();
    await settle();
    // Room again: the lane is idle.
    const d = batch('d');
    await settle();
    expect(started).toEqual(['a', 'b', 'd']);
    d.finish(1);
    await d.result;
  });

  it('with no batch allowed to wait, takes one on an idle lane and refuses one during a run or a rest', async () => {
    const { batch, sleeps, settle } = testLane({ maxWaiting: 0 });
    const a = batch('a');
    await settle();
    await expect(batch('during run').result).rejects.toBeInstanceOf(BatchLaneFull);
    a.finish(10);
    await a.result;
    await expect(batch('during rest').result).rejects.toBeInstanceOf(BatchLaneFull);
    sleeps[0]!.end();
    await settle();
    const b = batch('b');
    await settle();
    b.finish(1);
    await expect(b.result).resolves.toBe('b');
  });

  it('refuses settings outside their range', () => {
    for (const share of [0, -0.5, 1.5, Number.NaN]) {
      expect(() => createBatchLane({ share, maxWaiting: 1 })).toThrow(RangeError);
    }
    for (const maxWaiting of [-1, 1.5, Number.NaN]) {
      expect(() => createBatchLane({ share: 0.5, maxWaiting })).toThrow(RangeError);
    }
  });
});

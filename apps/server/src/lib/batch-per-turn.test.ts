import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { BATCH_PER_TURN_MAX, batchPerTurn, batchWhileBusy } from './batch-per-turn.js';

/** A batched read that records each batch it is given and answers every key doubled. */
function recordingRead() {
  const batches: number[][] = [];
  const read = batchPerTurn<number, number>(async (keys) => {
    batches.push([...keys]);
    return keys.map((k) => k * 2);
  });
  return { batches, read };
}

describe('batchPerTurn', () => {
  it('sends the calls of one turn together, after the turn', async () => {
    const { batches, read } = recordingRead();
    const answers = Promise.all([read(1), read(2), read(3)]);
    await Promise.resolve();
    expect(batches).toEqual([]);
    expect(await answers).toEqual([2, 4, 6]);
    expect(batches).toEqual([[1, 2, 3]]);
  });

  it('sends a full batch at once, before the turn has ended, and the rest after it', async () => {
    const { batches, read } = recordingRead();
    const keys = Array.from({ length: 2 * BATCH_PER_TURN_MAX + 3 }, (_, i) => i);
    const answers = Promise.all(keys.map((k) => read(k)));
    // Still in the turn that asked: the two full batches have gone, the last three wait.
    expect(batches).toEqual([
      keys.slice(0, BATCH_PER_TURN_MAX),
      keys.slice(BATCH_PER_TURN_MAX, 2 * BATCH_PER_TURN_MAX),
    ]);
    expect(await answers).toEqual(keys.map((k) => k * 2));
    expect(batches.at(-1)).toEqual(keys.slice(2 * BATCH_PER_TURN_MAX));
    expect(batches).toHaveLength(3);
  });

  it('sends a batch that has just filled after the turn, once', async () => {
    const { batches, read } = recordingRead();
    const keys = Array.from({ length: BATCH_PER_TURN_MAX }, (_, i) => i);
    const answers = Promise.all(keys.map((k) => read(k)));
    expect(await answers).toEqual(keys.map((k) => k * 2));
    await nextTurn();
    expect(batches).toEqual([keys]);
    // A later turn begins a batch of its own.
    expect(await read(100)).toBe(200);
    expect(batches).toEqual([keys, [100]]);
  });

  it('fails only the key answered with an Error, and every key of a batch that fails', async () => {
    const read = batchPerTurn<number, number>(async (keys) => {
      if (keys.includes(13)) throw new Error('connection lost');
      return keys.map((k) => (k === 7 ? new Error(`no customer ${k}`) : k));
    });
    const [one, seven] = await Promise.allSettled([read(1), read(7)]);
    expect(one).toEqual({ status: 'fulfilled', value: 1 });
    expect(seven).toMatchObject({ status: 'rejected', reason: new Error('no customer 7') });
    const failed = await Promise.allSettled([read(2), read(13)]);
    expect(failed.map((r) => r.status)).toEqual(['rejected', 'rejected']);
  });
});

/** A batched write whose batches end only when the test says so; records each batch it is given. */
function heldWrite(options: { maxBatchSize: number; maxRunning: number }) {
  const batches: number[][] = [];
  const releases: (() => void)[] = [];
  const write = batchWhileBusy<number, number>(async (keys) => {
    batches.push([...keys]);
    await new Promise<void>((release) => releases.push(release));
    if (keys.includes(13)) throw new Error('connection lost');
    return keys.map((k) => k * 2);
  }, options);
  /** Lets the oldest running batch end, and waits until what follows from it has been dispatched. */
  const endOldest = async () => {
    releases.shift()!();
    await nextTurn();
    await nextTurn();
  };
  return { batches, write, endOldest };
}

describe('batchWhileBusy', () => {
  it('sends the calls of one turn together when nothing runs, as batchPerTurn does', async () => {
    const { batches, write, endOldest } = heldWrite({ maxBatchSize: 250, maxRunning: 1 });
    const answers = Promise.all([write(1), write(2)]);
    await nextTurn();
    expect(batches).toEqual([[1, 2]]);
    await endOldest();
    expect(await answers).toEqual([2, 4]);
  });

  it('holds the calls asked for while a batch runs, and sends them together when it ends', async () => {
    const { batches, write, endOldest } = heldWrite({ maxBatchSize: 250, maxRunning: 1 });
    const first = write(1);
    await nextTurn();
    // Three more turns ask while the first batch runs: none of them goes yet.
    const later = [write(2)];
    await nextTurn();
    later.push(write(3));
    await nextTurn();
    later.push(write(4));
    await nextTurn();
    expect(batches).toEqual([[1]]);
    await endOldest();
    expect(await first).toBe(2);
    expect(batches).toEqual([[1], [2, 3, 4]]);
    await endOldest();
    expect(await Promise.all(later)).toEqual([4, 6, 8]);
  });

  it('runs at most maxRunning batches at once, each at most maxBatchSize keys', async () => {
    const { batches, write, endOldest } = heldWrite({ maxBatchSize: 3, maxRunning: 2 });
    const answers = [write(1)];
    await nextTurn();
    answers.push(write(2));
    await nextTurn();
    for (const k of [3, 4, 5, 6, 7]) answers.push(write(k));
    await nextTurn();
    await nextTurn();
    // Two run; the five asked since wait, and go in batches of three at most as each one ends.
    expect(batches).toEqual([[1], [2]]);
    await endOldest();
    expect(batches).toEqual([[1], [2], [3, 4, 5]]);
    await endOldest();
    expect(batches).toEqual([[1], [2], [3, 4, 5], [6, 7]]);
    await endOldest();
    await endOldest();
    expect(await Promise.all(answers)).toEqual([2, 4, 6, 8, 10, 12, 14]);
  });

  it('goes on after a batch that fails, which fails only its own calls', async () => {
    const { batches, write, endOldest } = heldWrite({ maxBatchSize: 250, maxRunning: 1 });
    const failing = write(13).catch((error: unknown) => error);
    await nextTurn();
    const waiting = write(5);
    await endOldest();
    expect(await failing).toEqual(new Error('connection lost'));
    expect(batches).toEqual([[13], [5]]);
    await endOldest();
    expect(await waiting).toBe(10);
  });
});

import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { BATCH_PER_TURN_MAX, batchPerTurn } from './batch-per-turn.js';

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

import DataLoader from 'dataloader';

/**
 * How many keys one batch may carry. An instance under load takes many calls per turn of the event
 * loop; a turn's calls go as one statement (or one transaction), in parts of this size.
 */
export const BATCH_PER_TURN_MAX = 100;

/**
 * The calls of one turn of the event loop run together (decision 0053): `runMany` gets every key
 * asked for during the turn (at most BATCH_PER_TURN_MAX at a time) and answers one value per key, in
 * order (an Error fails that key's call alone). Under load one statement for 16 calls costs PostgreSQL and this process about what one did.
 * Nothing is kept (DataLoader's cache is off): every call asks the database, and a write is seen by the
 * next read. A failed batch fails every call in it. Not for reads inside a transaction: those must go
 * on the transaction's connection, alone.
 */
export function batchPerTurn<K, V>(
  runMany: (keys: readonly K[]) => Promise<readonly (V | Error)[]>,
): (key: K) => Promise<V> {
  const loader = new DataLoader<K, V>(runMany, {
    cache: false,
    maxBatchSize: BATCH_PER_TURN_MAX,
    // After the event loop has taken every request that arrived together, not at the first microtask.
    batchScheduleFn: (run) => setImmediate(run),
  });
  return (key) => loader.load(key);
}

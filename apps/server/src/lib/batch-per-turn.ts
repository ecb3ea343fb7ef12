import DataLoader from 'dataloader';

/**
 * How many keys one batch carries at most (decision 0059). A full batch goes when the next key is
 * asked for, not at the end of the turn: PostgreSQL starts on it while this process still takes the
 * turn's other requests, and a turn of many calls goes as several statements that other connections
 * run beside it.
 */
export const BATCH_PER_TURN_MAX = 8;

/**
 * The calls of one turn of the event loop run together (decision 0053): `runMany` gets the keys asked
 * for during the turn, at most BATCH_PER_TURN_MAX at a time, and answers one value per key, in order
 * (an Error fails that key's call alone). A full batch goes when the next key is asked for (decision
 * 0059); any other after the event loop has taken every request that arrived together
 * (`setImmediate`). Under load one statement for 8 calls costs PostgreSQL and this process little
 * more than one did. Nothing is kept (DataLoader's cache is off): every call asks the database, and a
 * write is seen by the next read. A failed batch fails every call in it. Not for reads inside a
 * transaction: those must go on the transaction's connection, alone.
 */
export function batchPerTurn<K, V>(
  runMany: (keys: readonly K[]) => Promise<readonly (V | Error)[]>,
): (key: K) => Promise<V> {
  /** The batch that waits for the end of the turn, if one does. */
  let waiting: (() => void) | undefined;
  const loader = new DataLoader<K, V>(runMany, {
    cache: false,
    maxBatchSize: BATCH_PER_TURN_MAX,
    // DataLoader begins a new batch while one waits only when that one is full: it goes now.
    batchScheduleFn: (dispatch) => {
      waiting?.();
      waiting = dispatch;
      setImmediate(() => {
        if (waiting !== dispatch) return;
        waiting = undefined;
        dispatch();
      });
    },
  });
  return (key) => loader.load(key);
}

/**
 * Like batchPerTurn, but at most `maxRunning` batches run at once: the keys asked for while they run
 * wait, and go together (up to `maxBatchSize` at a time) when one of them ends (decision 0060). For
 * work whose cost is mostly per statement and per commit, not per key, such as the expiry of what
 * fell due on a member's visit. Under light load each batch goes at the end of its turn, as with
 * batchPerTurn.
 */
export function batchWhileBusy<K, V>(
  runMany: (keys: readonly K[]) => Promise<readonly (V | Error)[]>,
  { maxBatchSize, maxRunning }: { maxBatchSize: number; maxRunning: number },
): (key: K) => Promise<V> {
  let running = 0;
  /** Batches ready to go once a running one ends, oldest first. */
  const ready: (() => void)[] = [];
  const ended = () => {
    running -= 1;
    ready.shift()?.();
  };
  const loader = new DataLoader<K, V>(
    (keys) => {
      running += 1;
      const run = runMany(keys);
      run.then(ended, ended);
      return run;
    },
    {
      cache: false,
      maxBatchSize,
      // A batch collects keys until its turn ends, and then until fewer than maxRunning run.
      batchScheduleFn: (dispatch) =>
        setImmediate(() => (running < maxRunning ? dispatch() : ready.push(dispatch))),
    },
  );
  return (key) => loader.load(key);
}

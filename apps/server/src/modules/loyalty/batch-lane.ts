import type { SharedWaitingPlaces, WaitingPlace } from '../../lib/shared-waiting-places.js';

/**
 * The lane the rental system's event batches go through (decision 0013). Batches run one at a time,
 * and after each the lane rests in proportion to the time the batch took, so that batches sent back
 * to back take at most `share` of the time and the customers' requests keep the rest: the database
 * (embedded PGlite has one session; a batch holds it) and the CPU (the database's work competes with
 * the server's thread on a small machine). A batch that comes while the lane rests or runs waits its
 * turn; a batch that comes to an idle lane starts at once. More than `maxWaiting` batches waiting:
 * the next is refused (BatchLaneFull), and the sender retries later (each event's source id makes a
 * resend safe). With `places` (REDIS_URL) the waiting batches are counted across the fleet: at most
 * `maxWaiting` wait on all instances together; while those cannot be counted, each lane counts alone.
 */
export interface BatchLaneOptions {
  /** Most of the time batches may take when they come back to back: 0 < share ≤ 1 (1: no rest). */
  share: number;
  /** Batches that may wait for their turn; one more is refused. */
  maxWaiting: number;
  /** Waiting places shared by the instances (Redis); without them the lane counts its own. */
  places?: SharedWaitingPlaces | undefined;
  /** Milliseconds, monotonic (tests pass their own). */
  now?: () => number;
  /** Resolves after `ms` (tests pass their own). */
  sleep?: (ms: number) => Promise<void>;
}

export interface BatchLane {
  /** Runs `batch` in its turn and resolves with its result; rejects with BatchLaneFull if the lane is full. */
  run<T>(batch: () => Promise<T>): Promise<T>;
  /** Batches waiting for their turn now. */
  readonly waiting: number;
}

/** The lane has `maxWaiting` batches waiting: this one was not run. */
export class BatchLaneFull extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super(`too many loyalty event batches are waiting: try again in ${retryAfterSeconds} s`);
    this.name = 'BatchLaneFull';
  }
}

const timerSleep = (ms: number) =>
  new Promise<void>((resolve) => {
    // Not holding the process open: a batch waiting for its turn is an open request, which does.
    setTimeout(resolve, ms).unref();
  });

export function createBatchLane({
  share,
  maxWaiting,
  places,
  now = () => performance.now(),
  sleep = timerSleep,
}: BatchLaneOptions): BatchLane {
  if (!(share > 0 && share <= 1)) throw new RangeError(`share must be over 0 and at most 1 (got ${share})`);
  if (!(Number.isInteger(maxWaiting) && maxWaiting >= 0)) {
    throw new RangeError(`maxWaiting must be a whole number, 0 or more (got ${maxWaiting})`);
  }
  const restPerMs = 1 / share - 1;
  // Resolves when the lane is free for the next batch (the previous one ran and its rest is over).
  let free: Promise<void> = Promise.resolve();
  // Batches whose turn has not ended: the one running or resting, and those waiting behind it.
  let inLane = 0;
  // A batch's time plus its rest, the last time: how long each waiting batch may take.
  let lastTurnMs = 0;

  return {
    get waiting() {
      return Math.max(0, inLane - 1);
    },
    async run<T>(batch: () => Promise<T>): Promise<T> {
      const full = () => new BatchLaneFull(Math.max(1, Math.ceil((Math.max(inLane, 1) * lastTurnMs) / 1000)));
      // A batch that would wait takes one of the fleet's waiting places, when they can be counted.
      let place: WaitingPlace | 'full' | undefined;
      if (inLane > 0 && places) place = await places.take(maxWaiting);
      if (place === 'full') throw full();
      if (!place && inLane > maxWaiting) throw full();
      const turn = free;
      let release!: () => void;
      free = new Promise((resolve) => (release = resolve));
      inLane += 1;
      const endTurn = () => {
        inLane -= 1;
        release();
      };
      await turn;
      place?.release();
      const started = now();
      try {
        return await batch();
      } finally {
        const tookMs = now() - started;
        const restMs = tookMs * restPerMs;
        lastTurnMs = tookMs + restMs;
        if (restMs > 0) void sleep(restMs).then(endTurn, endTurn);
        else endTurn();
      }
    },
  };
}

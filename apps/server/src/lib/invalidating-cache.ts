/** A loaded value, and until when it may be served (ms since the epoch; forever when left out). */
export interface Loaded<V> {
  value: V;
  validUntil?: number;
}

interface Slot<V> {
  /** The load that filled (or is filling) this slot: a number never used before. */
  generation: number;
  pending?: Promise<V>;
  value?: V;
  validUntil: number;
  weight: number;
}

export interface InvalidatingCacheOptions<V> {
  /** Customers (keys) kept at most; past it the oldest goes. */
  maxKeys: number;
  /** Total weight kept at most (e.g. characters of JSON); past it the oldest keys go. */
  maxWeight?: number;
  weigh?: (value: V) => number;
  now?: () => number;
}

/**
 * A per-instance read cache by customer (key), each customer's values under names (sub-keys), kept
 * correct by invalidation (decision 0011):
 * - `invalidate(key)` drops a customer's values at once, `clear()` everyone's;
 * - every load gets a new generation number and stores its result only if its slot still has that
 *   number: a load that started before an invalidation (which removes the slot) never stores its
 *   possibly stale result. Loads of the same slot at the same time share one database read;
 * - while `enabled` is false (the listener for other instances' changes is down) nothing is served
 *   from or stored in it;
 * - bounded: at most `maxKeys` customers and `maxWeight` in total, oldest customer first out.
 */
export class InvalidatingCache<V> {
  private readonly entries = new Map<string, Map<string, Slot<V>>>();
  private generation = 0;
  private totalWeight = 0;
  private on: boolean;
  private readonly maxKeys: number;
  private readonly maxWeight: number;
  private readonly weigh: (value: V) => number;
  private readonly now: () => number;
  /** Reads answered from the cache (or a load under way), for the metrics. */
  hits = 0;
  /** Reads that loaded (the cache off included), for the metrics. */
  misses = 0;

  constructor(options: InvalidatingCacheOptions<V> & { enabled?: boolean }) {
    this.maxKeys = options.maxKeys;
    this.maxWeight = options.maxWeight ?? Infinity;
    this.weigh = options.weigh ?? (() => 0);
    this.now = options.now ?? Date.now;
    this.on = options.enabled ?? true;
  }

  get enabled(): boolean {
    return this.on;
  }

  /** Turns serving on or off; either way everything cached so far is dropped. */
  set enabled(on: boolean) {
    this.clear();
    this.on = on;
  }

  /** Customers with something cached (or being loaded). */
  get size(): number {
    return this.entries.size;
  }

  /** The value cached under (key, name) and valid at `at`, else what `load` answers (stored if still current). */
  async get(key: string, name: string, load: () => Promise<Loaded<V>>, at = this.now()): Promise<V> {
    if (!this.on) {
      this.misses += 1;
      return (await load()).value;
    }
    let slots = this.entries.get(key);
    const slot = slots?.get(name);
    if (slot) {
      if (slot.pending) {
        this.hits += 1;
        return slot.pending;
      }
      if (slot.validUntil > at) {
        this.hits += 1;
        return slot.value as V;
      }
      this.drop(slots!, name, slot);
    }
    this.misses += 1;
    if (!slots) {
      slots = new Map();
      this.entries.set(key, slots);
      this.evict();
    }
    const generation = ++this.generation;
    const pending = load().then(
      ({ value, validUntil = Infinity }) => {
        const current = this.entries.get(key)?.get(name);
        if (current?.generation === generation) {
          current.pending = undefined;
          current.value = value;
          current.validUntil = validUntil;
          current.weight = this.weigh(value);
          this.totalWeight += current.weight;
          this.evict();
        }
        return value;
      },
      (error: unknown) => {
        const current = this.entries.get(key);
        if (current?.get(name)?.generation === generation) this.drop(current, name, current.get(name)!);
        throw error;
      },
    );
    slots.set(name, { generation, pending, validUntil: 0, weight: 0 });
    return pending;
  }

  /** Drops what is cached of this customer; loads under way for it will not store. */
  invalidate(key: string): void {
    const slots = this.entries.get(key);
    if (!slots) return;
    for (const slot of slots.values()) this.totalWeight -= slot.weight;
    this.entries.delete(key);
  }

  /** Drops everything; loads under way will not store. */
  clear(): void {
    this.entries.clear();
    this.totalWeight = 0;
  }

  private drop(slots: Map<string, Slot<V>>, name: string, slot: Slot<V>): void {
    this.totalWeight -= slot.weight;
    slots.delete(name);
  }

  private evict(): void {
    while (this.entries.size > this.maxKeys || this.totalWeight > this.maxWeight) {
      const oldest = this.entries.keys().next();
      if (oldest.done) return;
      this.invalidate(oldest.value);
    }
  }
}

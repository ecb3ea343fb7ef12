import { createRequire } from 'node:module';
import type { FastifyBaseLogger } from 'fastify';
import type { FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { Redis } from 'ioredis';

/** What @fastify/rate-limit asks of a store (its LocalStore and RedisStore have this shape). */
interface Store {
  incr(
    key: string,
    callback: (error: Error | null, result: { current: number; ttl: number } | null) => void,
    timeWindow: number,
    max: number,
  ): void;
  child(routeOptions: unknown): Store;
}

// The library's own stores (not in its typed exports): the Redis one runs one Lua script per count.
const require = createRequire(import.meta.url);
const LocalStore = require('@fastify/rate-limit/store/LocalStore.js') as new (
  continueExceeding: boolean,
  exponentialBackoff: boolean,
  cache?: number,
) => Store;
const RedisStore = require('@fastify/rate-limit/store/RedisStore.js') as new (
  continueExceeding: boolean,
  exponentialBackoff: boolean,
  redis: Redis,
  key?: string,
) => Store;

/**
 * A rate-limit store shared by the instances through Redis (issue 21 §2), that falls back to this
 * instance's own counts while Redis cannot be reached: a lost Redis must not stop the service, and
 * limits per instance still stop floods (what every instance did before REDIS_URL).
 */
class FallbackStore implements Store {
  constructor(
    private readonly redis: Redis,
    private readonly shared: Store,
    private readonly local: Store,
    private readonly failed: (error: Error) => void,
  ) {}

  incr(key: string, callback: Parameters<Store['incr']>[1], timeWindow: number, max: number): void {
    // Not connected: no waiting for a command that would fail (the client queues nothing offline).
    if (this.redis.status !== 'ready') return this.local.incr(key, callback, timeWindow, max);
    this.shared.incr(
      key,
      (error, result) => {
        if (!error) return callback(null, result);
        // A count lost with the connection is the client's "Redis unreachable" line, logged once per
        // loss (lib/redis.ts); only a failure while connected is this store's to report.
        if (this.redis.status === 'ready') this.failed(error);
        this.local.incr(key, callback, timeWindow, max);
      },
      timeWindow,
      max,
    );
  }

  child(routeOptions: unknown): Store {
    return new FallbackStore(
      this.redis,
      this.shared.child(routeOptions),
      this.local.child(routeOptions),
      this.failed,
    );
  }
}

/** The `store` option of @fastify/rate-limit: counts in Redis under `prefix`, locally when Redis is away. */
export function sharedRateLimitStore(redis: Redis, prefix: string, log: FastifyBaseLogger) {
  let lastWarning = 0;
  const failed = (error: Error) => {
    // At most one line a minute while Redis fails, not one per request.
    if (Date.now() - lastWarning < 60_000) return;
    lastWarning = Date.now();
    log.warn({ err: error }, 'Redis rate-limit count failed: counting on this instance alone');
  };
  // A constructor that answers its own object, as the library calls `new Store(globalParams)`.
  function SharedStore(params: { continueExceeding?: boolean; exponentialBackoff?: boolean }) {
    const continueExceeding = params.continueExceeding ?? false;
    const exponentialBackoff = params.exponentialBackoff ?? false;
    return new FallbackStore(
      redis,
      new RedisStore(continueExceeding, exponentialBackoff, redis, prefix),
      new LocalStore(continueExceeding, exponentialBackoff),
      failed,
    );
  }
  return SharedStore as unknown as FastifyRateLimitStoreCtor;
}

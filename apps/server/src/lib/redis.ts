import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';

/**
 * A connection to the Redis the instances share (REDIS_URL). It never holds a request up: commands
 * fail at once while it is disconnected (no offline queue) and callers fall back to this instance's
 * own state; it reconnects on its own, and says so in the log once per loss.
 */
export async function openRedis(url: string, log: FastifyBaseLogger): Promise<Redis> {
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    // Commands of one turn of the event loop go to Redis in one write (DPoP proof ids, rate limits).
    enableAutoPipelining: true,
    maxRetriesPerRequest: 0,
    connectTimeout: 2_000,
    commandTimeout: 500,
    retryStrategy: (times) => Math.min(times * 200, 5_000),
  });
  let up = false;
  let warned = false;
  redis.on('ready', () => {
    if (warned) log.info('Redis reachable again: limits shared by the instances again');
    up = true;
    warned = false;
  });
  redis.on('error', (error: Error) => {
    if (warned) return;
    warned = true;
    log.warn(
      { err: error },
      `Redis unreachable${up ? '' : ' at start'}: each instance counts alone until it is back`,
    );
    up = false;
  });
  // Start with shared counts when Redis is there; without waiting longer than its connect timeout.
  await new Promise<void>((resolve) => {
    const done = () => {
      redis.off('ready', done);
      redis.off('error', done);
      resolve();
    };
    redis.once('ready', done);
    redis.once('error', done);
  });
  return redis;
}

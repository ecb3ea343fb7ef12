import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';

/** A place taken among those the fleet shares; give it back once it is no longer needed. */
export interface WaitingPlace {
  release(): void;
}

/**
 * Places that every instance counts against (issue 21 §2): at most `max` taken at once across the
 * fleet. `take` answers a place, 'full' when all are taken, or undefined when the shared count cannot
 * be asked (no Redis, or Redis unreachable): the caller then counts on its own, as without Redis.
 */
export interface SharedWaitingPlaces {
  take(max: number): Promise<WaitingPlace | 'full' | undefined>;
}

// One sorted set per kind of place: member = place id, score = the end of its lease (Redis's own clock,
// so instances' clocks do not matter). A place of an instance that died leaves with its lease.
const TAKE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[3]), ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1`;
const RENEW = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
for i = 2, #ARGV do redis.call('ZADD', KEYS[1], 'XX', now + tonumber(ARGV[1]), ARGV[i]) end
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return 1`;

type PlaceCommands = {
  takeWaitingPlace(key: string, max: number, id: string, leaseMs: number): Promise<number>;
  renewWaitingPlaces(key: string, leaseMs: number, ...ids: string[]): Promise<number>;
};

/**
 * Waiting places kept in Redis under `key`. Each is leased for `leaseMs` and renewed every third of
 * that while this instance holds it, so a killed instance's places free themselves within a lease.
 */
export function redisWaitingPlaces(
  redis: Redis,
  key: string,
  log: FastifyBaseLogger,
  leaseMs = 30_000,
): SharedWaitingPlaces {
  if (!('takeWaitingPlace' in redis)) {
    redis.defineCommand('takeWaitingPlace', { numberOfKeys: 1, lua: TAKE });
    redis.defineCommand('renewWaitingPlaces', { numberOfKeys: 1, lua: RENEW });
  }
  const commands = redis as unknown as PlaceCommands;
  const held = new Set<string>();
  let renewing: NodeJS.Timeout | undefined;
  let lastWarning = 0;
  const failed = (err: unknown) => {
    // At most one line a minute while Redis fails (lib/redis.ts logs the connection's loss itself).
    if (Date.now() - lastWarning < 60_000) return;
    lastWarning = Date.now();
    log.warn({ err }, 'Redis count of waiting places failed: counting on this instance alone');
  };
  const renew = () => {
    if (held.size === 0 || redis.status !== 'ready') return;
    commands.renewWaitingPlaces(key, leaseMs, ...held).catch(failed);
  };

  return {
    async take(max) {
      if (redis.status !== 'ready') return undefined;
      const id = randomBytes(9).toString('base64url');
      let taken: number;
      try {
        taken = await commands.takeWaitingPlace(key, max, id, leaseMs);
      } catch (err) {
        failed(err);
        return undefined;
      }
      if (taken !== 1) return 'full';
      held.add(id);
      renewing ??= setInterval(renew, leaseMs / 3).unref();
      let released = false;
      return {
        release() {
          if (released) return;
          released = true;
          held.delete(id);
          if (held.size === 0) {
            clearInterval(renewing);
            renewing = undefined;
          }
          // Not given back (Redis away): the place leaves with its lease.
          if (redis.status === 'ready') redis.zrem(key, id).catch(failed);
        },
      };
    },
  };
}

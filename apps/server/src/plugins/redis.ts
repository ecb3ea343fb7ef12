import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';
import type { AppConfig } from '../config.js';
import { openRedis } from '../lib/redis.js';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The Redis the instances share (REDIS_URL), or null without it. Whoever counts in it falls back to
     * this instance's own counts while it is not `ready` (lib/redis.ts logs the loss and the return).
     */
    redis: Redis | null;
  }
}

/** One connection per instance for everything counted across the fleet (issue 21 §2, decision 0038). */
export default fp<{ config: AppConfig }>(
  async (app, { config }) => {
    const redis = config.redisUrl ? await openRedis(config.redisUrl, app.log) : null;
    if (redis) app.addHook('onClose', async () => void redis.disconnect());
    app.decorate('redis', redis);
  },
  { name: 'redis' },
);

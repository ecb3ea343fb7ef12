import fp from 'fastify-plugin';
import rateLimit from '@fastify/rate-limit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { apiErrorCodes, type ApiErrorBody } from '@roadpass/contracts';
import type { AppConfig } from '../config.js';
import { sharedRateLimitStore } from '../lib/shared-rate-limit-store.js';

const WINDOW_MS = 60_000;

/** @fastify/rate-limit's manual check: counts the request; `isExceeded` once over the budget. */
export type RateLimitCheck = Check;
type Check = (
  request: FastifyRequest,
) => Promise<{ isAllowed: true } | { isAllowed: false; isExceeded: boolean; ttlInSeconds: number }>;

/** Seconds until the budget frees, or undefined when the request is within it. */
async function overBudget(check: Check, request: FastifyRequest): Promise<number | undefined> {
  const result = await check(request);
  return !result.isAllowed && result.isExceeded ? result.ttlInSeconds : undefined;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Counts a signed-in call against its customer's budget (null when customer limits are off). */
    customerRateLimit: Check | null;
    /** Counts a call without login that takes a token (unsubscribe, e-mail confirmation), per address. */
    tokenCallRateLimit: Check | null;
  }
}

/** Paths with a budget: the API and the identity provider (not the app's static files). */
const limitedPath = (url: string) => url.startsWith('/api/') || url.startsWith('/auth/');

function refuse(reply: FastifyReply, retryAfterSeconds: number, per: 'address' | 'customer'): FastifyReply {
  const message = `Too many requests from this ${per}: try again in ${retryAfterSeconds} s`;
  const body: ApiErrorBody = {
    status: 429,
    code: apiErrorCodes.tooManyRequests,
    message,
    violations: [{ field: per, rule: 'rateLimit', message }],
  };
  return reply
    .status(429)
    .header('retry-after', String(Math.max(1, retryAfterSeconds)))
    .header('cache-control', 'no-store')
    .type('application/json; charset=utf-8')
    .send(body);
}

/**
 * A general rate limit (issue 10, finding 6) on top of the sign-in throttle: requests per minute per
 * client address on /api and /auth (RATE_LIMIT_PER_ADDRESS), and signed-in API calls per minute per
 * customer (RATE_LIMIT_PER_CUSTOMER); 0 turns one off. Over it: 429 with Retry-After in the API's
 * error shape. With REDIS_URL the counts are shared by all instances (issue 21 §2; falling back to
 * this instance's own while Redis is away); without it they are per instance (@fastify/rate-limit's
 * in-memory store): behind N instances a client then gets up to N times the budget.
 *
 * Register before the identity provider (its middleware answers in onRequest), and call
 * `customerRateLimit` after the bearer token is verified.
 */
export default fp<{ config: AppConfig }>(
  async (app, { config }) => {
    const redis = app.redis;
    await app.register(rateLimit, {
      global: false,
      timeWindow: WINDOW_MS,
      ...(redis
        ? { store: sharedRateLimitStore(redis, `${config.redisKeyPrefix}rate-limit:`, app.log) }
        : {}),
    });

    if (config.rateLimitPerAddress > 0) {
      const byAddress = app.createRateLimit({ max: config.rateLimitPerAddress, timeWindow: WINDOW_MS });
      app.addHook('onRequest', async (request, reply) => {
        if (!limitedPath(request.url)) return;
        const wait = await overBudget(byAddress, request);
        if (wait !== undefined) return refuse(reply, wait, 'address');
      });
    }

    app.decorate(
      'customerRateLimit',
      config.rateLimitPerCustomer > 0
        ? app.createRateLimit({
            max: config.rateLimitPerCustomer,
            timeWindow: WINDOW_MS,
            keyGenerator: (request) => `customer:${request.customer?.customerId ?? request.ip}`,
          })
        : null,
    );

    // Calls without login that take a token get a budget of their own, far below the general one:
    // guessing tokens stays hopeless (2^256) and a script cannot even try many.
    app.decorate(
      'tokenCallRateLimit',
      config.rateLimitTokenCalls > 0
        ? app.createRateLimit({
            max: config.rateLimitTokenCalls,
            timeWindow: WINDOW_MS,
            keyGenerator: (request) => `token-call:${request.ip}`,
          })
        : null,
    );
  },
  { name: 'rate-limits', dependencies: ['errors', 'redis'] },
);

/** For the bearer check: refuses the call when its customer is over budget. */
export async function checkCustomerRateLimit(
  limit: Check | null,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply | undefined> {
  if (!limit) return undefined;
  const wait = await overBudget(limit, request);
  return wait === undefined ? undefined : refuse(reply, wait, 'customer');
}

/** preHandler of the calls without login that take a token: 429 once the address is over budget. */
export async function checkTokenCallRateLimit(
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply | undefined> {
  const limit = request.server.tokenCallRateLimit;
  if (!limit) return undefined;
  const wait = await overBudget(limit, request);
  return wait === undefined ? undefined : refuse(reply, wait, 'address');
}

/** For a route's own budget per client address (e.g. the error reporting tunnel): refuses when over it. */
export async function checkAddressRateLimit(
  limit: Check,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply | undefined> {
  const wait = await overBudget(limit, request);
  return wait === undefined ? undefined : refuse(reply, wait, 'address');
}

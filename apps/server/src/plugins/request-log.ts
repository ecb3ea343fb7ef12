import { randomUUID } from 'node:crypto';
import fp from 'fastify-plugin';
import { LogController, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import { apiPaths, appPaths } from '@roadpass/contracts';
import type { AppConfig } from '../config.js';

/** The header that carries a request's id back to the caller (and in from a load balancer). */
export const REQUEST_ID_HEADER = 'x-request-id';
const validRequestId = /^[A-Za-z0-9._-]{8,64}$/;

/** Addresses whose last segment is a secret token (unsubscribe and e-mail confirmation links). */
const tokenAddresses = [
  apiPaths.unsubscribeLookup,
  apiPaths.unsubscribe,
  appPaths.newsletterUnsubscribe,
  appPaths.emailConfirm,
].map((builder) => builder('TOKEN').replace(/TOKEN$/, ''));

/** The path as logged: no query string, and a link's token replaced by `{token}`. */
export function loggablePath(url: string): string {
  const path = url.split('?')[0]!;
  const prefix = tokenAddresses.find((p) => path.startsWith(p) && path.length > p.length);
  return prefix ? `${prefix}{token}` : path;
}

/**
 * Logger options: JSON lines for machines, or (LOG_FORMAT=pretty, the default for `npm start` in a
 * terminal) one short line per event through pino-pretty. Requests are logged by the request-log
 * plugin, not by Fastify's two lines per request; the query string never reaches a log (OIDC calls
 * carry codes and hints there), nor do headers, bodies or the tokens of e-mail links.
 */
export function loggerOptions(config: AppConfig): {
  level: string;
  serializers: { req: (req: FastifyRequest) => { method: string; url: string | undefined } };
  transport?: { target: string; options: Record<string, unknown> };
} {
  const serializers = {
    req: (req: FastifyRequest) => ({
      method: req.method,
      url: loggablePath(req.url),
    }),
  };
  if (config.logFormat === 'json') return { level: config.logLevel, serializers };
  return {
    level: config.logLevel,
    serializers,
    transport: {
      target: 'pino-pretty',
      options: {
        translateTime: 'SYS:HH:MM:ss',
        ignore: 'pid,hostname,reqId,requestId,method,path,status,ms',
        singleLine: true,
        colorize: true,
      },
    },
  };
}

/**
 * Fastify's own per-request lines off (the request-log plugin writes one instead), request ids labelled
 * `requestId`: a load balancer's X-Request-Id when it looks like one, else a new UUID.
 */
export function requestLogOptions(): Pick<FastifyServerOptions, 'genReqId' | 'logController'> {
  return {
    logController: new LogController({ disableRequestLogging: true, requestIdLogLabel: 'requestId' }),
    genReqId: (req) => {
      const given = req.headers[REQUEST_ID_HEADER];
      return typeof given === 'string' && validRequestId.test(given) ? given : randomUUID();
    },
  };
}

/**
 * One log line per request, after the response: method, path (no query), status and duration, with
 * the request id. 5xx at error and slow requests at warn, always; other requests at info, sampled
 * (LOG_REQUEST_SAMPLE_PERCENT: all outside production, 1 % in production). The id is returned in
 * X-Request-Id so a customer's report can be found in the log.
 */
export default fp<{ config: AppConfig; random?: () => number }>(
  async (app, { config, random = Math.random }) => {
    // Callback hooks, not async ones: no promise per request for a few synchronous lines.
    app.addHook('onRequest', (request, reply, done) => {
      reply.header(REQUEST_ID_HEADER, request.id);
      done();
    });
    app.addHook('onResponse', (request, reply, done) => {
      const ms = Math.round(reply.elapsedTime);
      const status = reply.statusCode;
      const level =
        status >= 500
          ? 'error'
          : ms >= config.logSlowRequestMs
            ? 'warn'
            : random() * 100 < config.logRequestSamplePercent
              ? 'info'
              : undefined;
      // The line is built only for a request that is logged.
      if (level) {
        const path = loggablePath(request.url);
        const text = `${request.method} ${path} ${status} ${ms} ms`;
        request.log[level](
          { method: request.method, path, status, ms },
          level === 'warn' ? `${text} (slow)` : text,
        );
      }
      done();
    });
  },
  { name: 'request-log' },
);

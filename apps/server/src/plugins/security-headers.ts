import type { IncomingMessage, ServerResponse } from 'node:http';
import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';
import { apiPaths } from '@roadpass/contracts';
import type { AppConfig } from '../config.js';
import { SIGNED_OUT_PRELOAD_SCRIPT_HASH } from '../modules/web-app/index.js';

type HeaderSetter = (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void;

/** The headers a helmet middleware sets: the same on every call (helmet computes them at creation). */
function headersOf(setter: HeaderSetter): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader: (name: string, value: unknown) => void (headers[name.toLowerCase()] = String(value)),
    removeHeader: () => {},
  };
  setter({} as IncomingMessage, recorder as unknown as ServerResponse, (error) => {
    if (error) throw error as Error;
  });
  return headers;
}

/**
 * Security headers on every response, including the identity provider's pages: a strict CSP whose only
 * inline script is the app page's own, allowed by its hash (decision 0072), nosniff, frame-ancestors, referrer policy. Set in an onRequest hook, before any
 * handler (or the mounted OIDC provider) writes: on the raw response for documents, through the
 * reply for the API (decision 0056).
 *
 * Two sets, each built once at start (helmet precomputes its header values; @fastify/helmet built a
 * new helmet middleware for every request, about 2 % of an API call's CPU):
 * - documents (pages, scripts, /config.json, the identity provider): helmet's defaults with our CSP;
 * - JSON under /api: what the OWASP REST security cheat sheet asks of an API (a CSP that allows
 *   nothing, no framing, nosniff, no referrer, same-origin resource policy, HSTS on https) instead
 *   of the page headers that mean nothing to a JSON answer: about 250 bytes instead of 780 per
 *   response.
 */
export default fp<{ config: AppConfig }>(
  async (app, { config }) => {
    const externalOrigin = config.externalIssuer ? new URL(config.externalIssuer).origin : undefined;
    const extra = externalOrigin ? [externalOrigin] : [];
    // The tag manager's script host, only when a container is configured; the app loads it only after
    // analytics consent (the CSP cannot know consent: the consent manager is the gate).
    const tagManagerOrigin = new URL(config.tagManagerUrl).origin;
    const scripts = config.tagManagerId && tagManagerOrigin !== config.publicUrl ? [tagManagerOrigin] : [];
    const https = config.publicUrl.startsWith('https:');
    const strictTransportSecurity: HelmetOptions['strictTransportSecurity'] = https
      ? { maxAge: 31_536_000 }
      : false;

    const documentHeaders: HeaderSetter = helmet({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          // The app page's one inline script (it preloads the sign-in client in a tab without a token,
          // decision 0072), by its hash: no other inline script runs.
          scriptSrc: ["'self'", SIGNED_OUT_PRELOAD_SCRIPT_HASH, ...scripts],
          styleSrc: ["'self'"],
          imgSrc: ["'self'", 'data:'],
          fontSrc: ["'self'"],
          connectSrc: ["'self'", ...extra],
          formAction: ["'self'", ...extra],
          frameAncestors: ["'self'"],
          baseUri: ["'self'"],
          objectSrc: ["'none'"],
          ...(https ? { upgradeInsecureRequests: [] } : {}),
        },
      },
      referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
      strictTransportSecurity,
      crossOriginEmbedderPolicy: false,
    });

    const apiHeaders: HeaderSetter = helmet({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] },
      },
      xFrameOptions: { action: 'deny' },
      referrerPolicy: { policy: 'no-referrer' },
      crossOriginResourcePolicy: { policy: 'same-origin' },
      strictTransportSecurity,
      crossOriginEmbedderPolicy: false,
      crossOriginOpenerPolicy: false,
      originAgentCluster: false,
      xDnsPrefetchControl: false,
      xDownloadOptions: false,
      xPermittedCrossDomainPolicies: false,
      xXssProtection: false,
    });

    // The API reference page (modules/api-docs): the API's headers, with a CSP that lets it load its own
    // script and stylesheet, Swagger UI's inline SVG images, and the OpenAPI document; nothing else.
    const referenceHeaders: HeaderSetter = helmet({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'none'"],
          scriptSrc: ["'self'"],
          styleSrc: ["'self'"],
          imgSrc: ["'self'", 'data:'],
          connectSrc: ["'self'"],
          frameAncestors: ["'none'"],
          baseUri: ["'none'"],
          formAction: ["'none'"],
        },
      },
      xFrameOptions: { action: 'deny' },
      referrerPolicy: { policy: 'no-referrer' },
      crossOriginResourcePolicy: { policy: 'same-origin' },
      strictTransportSecurity,
      crossOriginEmbedderPolicy: false,
    });

    const isReference = (url: string) => {
      const path = url.split('?', 1)[0]!;
      return path === apiPaths.apiReference || path.startsWith(`${apiPaths.apiReference}/`);
    };

    // The API's two sets go through Fastify's reply (every /api answer is Fastify's), read once from
    // helmet: a call then sets a few plain properties instead of running helmet's chain of
    // middlewares and Node's setHeader checks for each (performance.md, 28 Nov).
    // Documents keep helmet on the raw response: the identity provider writes its own.
    const api = headersOf(apiHeaders);
    const reference = headersOf(referenceHeaders);
    app.addHook('onRequest', (request, reply, done) => {
      if (!request.url.startsWith('/api/'))
        return documentHeaders(request.raw, reply.raw, (error) => done(error as Error | undefined));
      // Only a path that starts like the reference's is split off its query.
      const url = request.url;
      reply.headers(url.startsWith(apiPaths.apiReference) && isReference(url) ? reference : api);
      done();
    });
  },
  { name: 'security-headers' },
);

import fp from 'fastify-plugin';
import helmet from '@fastify/helmet';
import type { AppConfig } from '../config.js';

/**
 * Security headers on every response, including the identity provider's pages: a strict CSP with no
 * inline scripts, nosniff, frame-ancestors, referrer policy. Registered first so its onRequest hook
 * sets the headers on the raw response before any handler (or the mounted OIDC provider) writes.
 */
export default fp<{ config: AppConfig }>(
  async (app, { config }) => {
    const externalOrigin = config.externalIssuer ? new URL(config.externalIssuer).origin : undefined;
    const extra = externalOrigin ? [externalOrigin] : [];
    // The tag manager's script host, only when a container is configured; the app loads it only after
    // analytics consent (the CSP cannot know consent: the consent manager is the gate).
    const tagManagerOrigin = new URL(config.tagManagerUrl).origin;
    const scripts = config.tagManagerId && tagManagerOrigin !== config.publicUrl ? [tagManagerOrigin] : [];
    await app.register(helmet, {
      global: true,
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'", ...scripts],
          styleSrc: ["'self'"],
          imgSrc: ["'self'", 'data:'],
          fontSrc: ["'self'"],
          connectSrc: ["'self'", ...extra],
          formAction: ["'self'", ...extra],
          frameAncestors: ["'self'"],
          baseUri: ["'self'"],
          objectSrc: ["'none'"],
          ...(config.publicUrl.startsWith('https:') ? { upgradeInsecureRequests: [] } : {}),
        },
      },
      referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
      strictTransportSecurity: config.publicUrl.startsWith('https:') ? { maxAge: 31_536_000 } : false,
      crossOriginEmbedderPolicy: false,
    });
  },
  { name: 'security-headers' },
);

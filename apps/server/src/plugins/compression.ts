import { constants } from 'node:zlib';
import fp from 'fastify-plugin';
import compress from '@fastify/compress';

/** Responses smaller than this are sent as they are: compressing them saves less than it costs. */
export const COMPRESSION_THRESHOLD_BYTES = 1024;

/**
 * Compresses the API's JSON (and any other compressible reply) above 1 kB for clients that accept
 * brotli or gzip. Brotli at quality 4: most of the gain of 11 at a small part of its CPU, which matters
 * per request. The web app's files come precompressed from the build and are sent as built: their
 * routes (`precompressedRoutes`) are left out, so a file the build left uncompressed (a few bytes) is
 * not compressed per request (streamed without a length). The identity provider writes its own
 * responses (mounted with middie, they never reach Fastify's reply).
 */
export default fp<{ precompressedRoutes?: readonly string[] }>(
  async (app, { precompressedRoutes = [] }) => {
    // Before @fastify/compress's own onRoute hook, which reads `compress` to decide.
    app.addHook('onRoute', (route) => {
      if (route.compress === undefined && precompressedRoutes.includes(route.url)) route.compress = false;
    });
    await app.register(compress, {
      global: true,
      threshold: COMPRESSION_THRESHOLD_BYTES,
      encodings: ['br', 'gzip'],
      brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } },
      zlibOptions: { level: 6 },
    });
  },
  { name: 'compression' },
);

import { existsSync } from 'node:fs';
import path from 'node:path';
import type { FastifyPluginAsync } from 'fastify';
import fastifyStatic from '@fastify/static';
import { apiErrorCodes } from '@roadpass/contracts';

/** The routes that send the built files: the files carry their build-time compression already. */
export const webAppFileRoutes = ['/', '/*'] as const;

/** The app's own addresses (product decisions §2): these get index.html, everything else a 404. */
const appAddresses = [
  /^\/$/,
  /^\/login\/callback\/?$/,
  /^\/[A-Z]{2}\/[a-z]{2}\/myaccount(\/.*)?$/,
  /^\/customer\/loyalty-ui(\/.*)?$/,
  /^\/newsletter\/unsubscribe\/[^/]+\/?$/,
  /^\/web\/payment\/customer\/payment-profiles\/?$/,
];

export function isAppAddress(pathname: string): boolean {
  return appAddresses.some((pattern) => pattern.test(pathname));
}

/**
 * Addresses that are never a page: the API, the identity provider, the built files (under /assets or
 * named like a file, e.g. /favicon.ico or /wp-login.php). Their unknown addresses keep the JSON 404.
 */
const programAddresses = /^\/(api|auth|assets)(\/|$)|\/[^/]*\.[A-Za-z0-9]{1,12}$/;

/**
 * Serves the built web app: hashed assets cached for a year, index.html never cached, and the SPA
 * fallback for the app's addresses. Any other GET or HEAD of a page address gets the app's not-found
 * page (status 404); the API, the identity provider, files and every other method keep the JSON 404.
 */
export const webAppRoutes: FastifyPluginAsync<{ webDistDir: string }> = async (app, { webDistDir }) => {
  const hasBuild = existsSync(path.join(webDistDir, 'index.html'));
  if (!hasBuild)
    app.log.warn({ webDistDir }, 'web app build not found: run `npm run build` to serve the app');
  else {
    await app.register(fastifyStatic, {
      root: webDistDir,
      index: false,
      wildcard: true,
      // The build writes brotli and gzip copies next to each file (apps/web/build/precompress.ts):
      // they are sent as they are, chosen from Accept-Encoding, with Vary: Accept-Encoding.
      preCompressed: true,
      setHeaders(reply, filePath) {
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        reply.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
    // The static wildcard would answer the root folder itself with 403; it is the app's start page.
    app.get('/', (_request, reply) => reply.header('cache-control', 'no-cache').sendFile('index.html'));
  }

  app.setNotFoundHandler(async (request, reply) => {
    const pathname = request.url.split('?')[0]!;
    const isRead = request.method === 'GET' || request.method === 'HEAD';
    if (hasBuild && isRead && isAppAddress(pathname)) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    // Any other page address (a wrong link, an old bookmark) gets the app with status 404: it shows
    // its translated not-found page with a way home. Programs keep the JSON 404.
    if (hasBuild && isRead && !programAddresses.test(pathname)) {
      return reply.status(404).header('cache-control', 'no-cache').sendFile('index.html');
    }
    return reply.status(404).send({
      status: 404,
      code: apiErrorCodes.notFound,
      message: `No such address: ${request.method} ${pathname}`,
    });
  });
};

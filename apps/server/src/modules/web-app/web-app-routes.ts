import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import {
  apiErrorCodes,
  RUNTIME_CONFIG_ELEMENT_ID,
  signsInFirst,
  type RuntimeConfig,
  webBuildFiles,
} from '@roadpass/contracts';
import { signedOutPreloadTag } from './signed-out-preload.js';

/** The routes that send the built files: the files carry their build-time compression already. */
export const webAppFileRoutes = ['/', '/*'] as const;

/** The app's own addresses (docs/product/addresses-and-routes.md#addresses): these get index.html, everything else a 404. */
const appAddresses = [
  /^\/$/,
  /^\/login\/callback\/?$/,
  /^\/[A-Z]{2}\/[a-z]{2}\/myaccount(\/.*)?$/,
  /^\/customer\/loyalty-ui(\/.*)?$/,
  /^\/newsletter\/unsubscribe\/[^/]+\/?$/,
  /^\/email\/confirm\/[^/]+\/?$/,
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
export const webAppRoutes: FastifyPluginAsync<{ webDistDir: string; runtimeConfig: RuntimeConfig }> = async (
  app,
  { webDistDir, runtimeConfig },
) => {
  const hasBuild = existsSync(path.join(webDistDir, 'index.html'));
  const html = hasBuild ? readFileSync(path.join(webDistDir, 'index.html'), 'utf8') : '';
  const page = hasBuild ? appPage(html, runtimeConfig) : null;
  // What a tab without a token preloads where the page signs in first (decision 0072).
  const signedOut = hasBuild ? readSignedOutPreloads(webDistDir) : [];
  const signingInPage = hasBuild ? appPage(html, runtimeConfig, [], signedOut) : null;
  // The pages whose chunks the build named (apps/web/build/preload-with-entry.ts), longest first;
  // each address in two forms, for a page that signs in first and for one that does not (the demo).
  const addressPages = hasBuild
    ? Object.entries(readAddressPreloads(webDistDir))
        .sort(([a], [b]) => b.length - a.length)
        .map(([address, files]) => ({
          address,
          page: appPage(html, runtimeConfig, files),
          signingInPage: appPage(html, runtimeConfig, files, signedOut),
        }))
    : [];
  const pageFor = (pathname: string) => {
    const signsIn = signsInFirst(pathname);
    const forAddress = addressPages.find(
      ({ address }) => pathname === address || pathname.startsWith(`${address}/`),
    );
    if (forAddress) return signsIn ? forAddress.signingInPage : forAddress.page;
    return signsIn ? signingInPage! : page!;
  };
  const sendPage = (request: FastifyRequest, reply: FastifyReply, status = 200) => {
    const encoding = preferredEncoding(request.headers['accept-encoding']);
    reply.status(status).header('cache-control', 'no-cache').header('vary', 'Accept-Encoding');
    reply.type('text/html; charset=utf-8');
    if (encoding) reply.header('content-encoding', encoding);
    const chosen = status === 200 ? pageFor(request.url.split('?')[0]!) : page!;
    return reply.send(chosen[encoding ?? 'identity']);
  };
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
    app.get('/', (request, reply) => sendPage(request, reply));
  }

  app.setNotFoundHandler(async (request, reply) => {
    const pathname = request.url.split('?')[0]!;
    const isRead = request.method === 'GET' || request.method === 'HEAD';
    if (hasBuild && isRead && isAppAddress(pathname)) return sendPage(request, reply);
    // Any other page address (a wrong link, an old bookmark) gets the app with status 404: it shows
    // its translated not-found page with a way home. Programs keep the JSON 404.
    if (hasBuild && isRead && !programAddresses.test(pathname)) return sendPage(request, reply, 404);
    return reply.status(404).send({
      status: 404,
      code: apiErrorCodes.notFound,
      message: `No such address: ${request.method} ${pathname}`,
    });
  });
};

type PageEncoding = 'br' | 'gzip' | 'identity';

/**
 * index.html with the runtime configuration inside (issue 10: one round trip less at start; the app
 * falls back to /config.json without it), compressed once at start like the build's other files.
 * A JSON data block is not a script. `preloads` are the address's chunks (decision 0070);
 * `signedOutPreloads`, where given, come with the script that preloads them in a tab without a token
 * (decision 0072), the one inline script the CSP allows, by its hash.
 */
export function appPage(
  html: string,
  runtimeConfig: RuntimeConfig,
  preloads: readonly string[] = [],
  signedOutPreloads: readonly string[] = [],
): Record<PageEncoding, Buffer> {
  const json = JSON.stringify(runtimeConfig).replace(/</g, '\\u003c');
  const links = preloads.map((file) => `<link rel="modulepreload" crossorigin href="${file}">`).join('');
  const block = `${links}<script type="application/json" id="${RUNTIME_CONFIG_ELEMENT_ID}">${json}</script>`;
  // In the head where there is one; anywhere works, as the app's module script runs after parsing.
  let text = html.includes('</head>') ? html.replace('</head>', `${block}</head>`) : html + block;
  // Before the entry and its stylesheet: a classic script after a stylesheet waits for it to load.
  // Less what the page preloads anyway (the DPoP code, with the entry).
  const signedOutOnly = signedOutPreloads.filter((file) => !text.includes(`href="${file}"`));
  if (signedOutOnly.length > 0) {
    const tag = signedOutPreloadTag(signedOutOnly);
    const at = text.indexOf('<script type="module"');
    text = at >= 0 ? text.slice(0, at) + tag + text.slice(at) : text.replace(block, tag + block);
  }
  const identity = Buffer.from(text);
  return {
    identity,
    br: brotliCompressSync(identity, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } }),
    gzip: gzipSync(identity, { level: 9 }),
  };
}

/** The build's root-relative scripts among `files`: all the HTML takes from its preload files. */
function assetScriptsIn(files: unknown): string[] {
  return Array.isArray(files)
    ? files.filter((file): file is string => typeof file === 'string' && /^\/assets\/[\w.-]+\.js$/.test(file))
    : [];
}

/** One of the files the build writes beside index.html (apps/web/build/preload-with-entry.ts), parsed; undefined from an older build. */
function readBuildFile(webDistDir: string, name: string): unknown {
  const file = path.join(webDistDir, name);
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined;
}

/**
 * address → the chunks its page preloads beside the entry, from the build's address-preloads.json;
 * none for an older build. Only root-relative asset paths are taken: the file is the build's, but the
 * HTML trusts nothing.
 */
export function readAddressPreloads(webDistDir: string): Record<string, string[]> {
  const table = readBuildFile(webDistDir, webBuildFiles.addressPreloads) as
    Record<string, unknown> | undefined;
  return Object.fromEntries(
    Object.entries(table ?? {}).map(([address, files]) => [address, assetScriptsIn(files)]),
  );
}

/** The chunks a tab without a token preloads, from the build's signed-out-preloads.json (decision 0072). */
export function readSignedOutPreloads(webDistDir: string): string[] {
  return assetScriptsIn(readBuildFile(webDistDir, webBuildFiles.signedOutPreloads));
}

/** br, else gzip, else none, as Accept-Encoding allows (q=0 refuses). */
export function preferredEncoding(header: string | string[] | undefined): 'br' | 'gzip' | null {
  const accepted = new Map(
    String(header ?? '')
      .split(',')
      .map((part) => {
        const [name, ...params] = part.trim().toLowerCase().split(';');
        const q = params.map((p) => /^\s*q=([\d.]+)/.exec(p)?.[1]).find(Boolean);
        return [name!, q === undefined ? 1 : Number(q)] as const;
      }),
  );
  const allows = (name: string) => (accepted.get(name) ?? accepted.get('*') ?? 0) > 0;
  return allows('br') ? 'br' : allows('gzip') ? 'gzip' : null;
}

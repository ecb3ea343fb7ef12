import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { apiPaths } from '@roadpass/contracts';

const require = createRequire(import.meta.url);
const distDir = (file: string) => require.resolve(`swagger-ui-dist/${file}`);
const { version } = require('swagger-ui-dist/package.json') as { version: string };

/**
 * Starts Swagger UI on the page: a file of its own (the CSP allows no inline script). A read-only
 * reference: no "Try it out" (calls need a customer's or the rental system's token), and no call to
 * swagger.io's validator (the CSP would refuse it, and the document stays here).
 */
const INIT_SCRIPT = `window.SwaggerUIBundle({
  url: ${JSON.stringify(apiPaths.openApiDocument)},
  dom_id: '#reference',
  deepLinking: true,
  validatorUrl: null,
  supportedSubmitMethods: [],
  docExpansion: 'list',
  defaultModelsExpandDepth: 0,
});
`;

/** A file of the page: its bytes, and brotli and gzip forms made once, on first demand. */
function asset(type: string, load: () => Promise<Buffer>) {
  let forms: Promise<{ raw: Buffer; br: Buffer; gzip: Buffer }> | undefined;
  const make = async () => {
    const raw = await load();
    const [br, gz] = await Promise.all([
      promisify(brotliCompress)(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } }),
      promisify(gzip)(raw, { level: 9 }),
    ]);
    return { raw, br, gzip: gz };
  };
  return async (request: FastifyRequest, reply: FastifyReply) => {
    forms ??= make();
    const { raw, br, gzip: gz } = await forms;
    const accepted = String(request.headers['accept-encoding'] ?? '');
    const [encoding, body] = /\bbr\b/.test(accepted)
      ? ['br', br]
      : /\bgzip\b/.test(accepted)
        ? ['gzip', gz]
        : [undefined, raw];
    if (encoding) reply.header('content-encoding', encoding);
    return reply
      .type(type)
      .header('vary', 'accept-encoding')
      .header(
        'cache-control',
        request.query && (request.query as { v?: string }).v === version
          ? 'public, max-age=31536000, immutable'
          : 'public, max-age=300',
      )
      .send(body);
  };
}

/**
 * GET /api/docs (docs/product/api.md#reference-page): the OpenAPI document (`/api/openapi.json`) as a
 * browsable reference for the rental system's and the native apps' developers, with Swagger UI served
 * from this server (swagger-ui-dist; decision 0049). Its files load on this page only, and the page has
 * a CSP of its own, as narrow as the API's apart from what the reference needs (security-headers.ts).
 */
export const apiDocsRoutes: FastifyPluginAsync = async (app) => {
  const base = apiPaths.apiReference;
  const page = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Roadpass API reference</title>
<link rel="icon" type="image/svg+xml" href="/favicon.svg">
<link rel="stylesheet" href="${base}/swagger-ui.css?v=${version}">
<script defer src="${base}/swagger-ui-bundle.js?v=${version}"></script>
<script defer src="${base}/init.js?v=${version}"></script>
</head>
<body>
<main id="reference"><noscript>The API reference needs JavaScript. The OpenAPI document itself is at <a href="${apiPaths.openApiDocument}">${apiPaths.openApiDocument}</a>.</noscript></main>
</body>
</html>
`;
  // Not API calls: outside the OpenAPI document, no login (the document itself is public too).
  const options = { config: { public: true }, schema: { hide: true }, compress: false } as const;
  app.get(base, { ...options, compress: undefined }, async (_request, reply) =>
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(page),
  );
  app.get(
    `${base}/swagger-ui-bundle.js`,
    options,
    asset('text/javascript; charset=utf-8', () => readFile(distDir('swagger-ui-bundle.js'))),
  );
  app.get(
    `${base}/swagger-ui.css`,
    options,
    asset('text/css; charset=utf-8', () => readFile(distDir('swagger-ui.css'))),
  );
  app.get(
    `${base}/init.js`,
    options,
    asset('text/javascript; charset=utf-8', async () => Buffer.from(INIT_SCRIPT)),
  );
};

import { createHash } from 'node:crypto';
import { mkdtemp, mkdir, writeFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/test-app.js';

let t: TestApp;
let dist: string;

beforeAll(async () => {
  dist = await mkdtemp(path.join(tmpdir(), 'roadpass-dist-'));
  await mkdir(path.join(dist, 'assets'));
  // Above 1 kB, so the build writes compressed copies of it as well (apps/web/build/precompress.ts).
  const page = `<!doctype html><title>Roadpass</title><div id="root"></div>${'<link rel="modulepreload">'.repeat(60)}`;
  await writeFile(path.join(dist, 'index.html'), page);
  await writeFile(path.join(dist, 'index.html.br'), brotliCompressSync(page));
  await writeFile(path.join(dist, 'index.html.gz'), gzipSync(page));
  await writeFile(path.join(dist, 'assets', 'index-abc123.js'), 'console.log(1)');
  // What the build's precompression writes next to a file (apps/web/build/precompress.ts).
  const script = `console.log(${JSON.stringify('Roadpass '.repeat(400))})`;
  await writeFile(path.join(dist, 'assets', 'big-def456.js'), script);
  await writeFile(path.join(dist, 'assets', 'big-def456.js.br'), brotliCompressSync(script));
  await writeFile(path.join(dist, 'assets', 'big-def456.js.gz'), gzipSync(script));
  // The chunks the build says some addresses preload (apps/web/build/preload-with-entry.ts), and a
  // file that is not the build's kind.
  await writeFile(
    path.join(dist, 'address-preloads.json'),
    JSON.stringify({
      '/customer/loyalty-ui': ['/assets/loyalty-routes-a1.js'],
      '/customer/loyalty-ui/status': ['/assets/loyalty-routes-a1.js', '/assets/loyalty-status-route-b2.js'],
      '/DE/de/myaccount': ['https://elsewhere.example/x.js', '/assets/x.js"><script>', 7],
    }),
  );
  // What a tab without a token preloads (decision 0072), and what is not the build's kind.
  await writeFile(
    path.join(dist, 'signed-out-preloads.json'),
    JSON.stringify([
      '/assets/user-manager-c3.js',
      '/assets/loyalty-routes-a1.js',
      '/assets/x.js" onload="alert(1)',
      '//elsewhere.example/y.js',
    ]),
  );
  t = await createTestApp({ webDistDir: dist, faultInjection: true });
});
afterAll(async () => {
  await t.close();
  await rm(dist, { recursive: true, force: true });
});

describe('serving the web app', () => {
  it.each([
    '/',
    '/login/callback?code=x&state=y',
    '/DE/de/myaccount',
    '/NL/en/myaccount/profile',
    '/customer/loyalty-ui/',
    '/customer/loyalty-ui/status',
    '/newsletter/unsubscribe/abc',
    '/email/confirm/abc',
    '/web/payment/customer/payment-profiles/',
  ])('answers the app address %s with index.html, not cached', async (url) => {
    const res = await t.app.inject({ url, headers: { accept: 'text/html' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.body).toContain('<div id="root">');
    expect(res.headers['cache-control']).toBe('no-cache');
  });

  it('puts the runtime configuration into the page (the body of /config.json), compressed as asked', async () => {
    const config = (await t.app.inject({ url: '/config.json' })).json();
    const block = (html: string) =>
      JSON.parse(/<script type="application\/json" id="roadpass-config">(.*?)<\/script>/.exec(html)![1]!);
    const plain = await t.app.inject({ url: '/customer/loyalty-ui/status' });
    expect(block(plain.body)).toEqual(config);
    const br = await t.app.inject({ url: '/DE/de/myaccount', headers: { 'accept-encoding': 'gzip, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(block(brotliDecompressSync(br.rawPayload).toString())).toEqual(config);
    const gzip = await t.app.inject({ url: '/', headers: { 'accept-encoding': 'gzip, br;q=0' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(block(gunzipSync(gzip.rawPayload).toString())).toEqual(config);
    const missing = await t.app.inject({ url: '/no-such-page', headers: { 'accept-encoding': 'identity' } });
    expect(missing.statusCode).toBe(404);
    expect(block(missing.body)).toEqual(config);
  });

  it('preloads the chunks the build names for an address and its sub-paths, the longest match first', async () => {
    // Compressed as sent (the page is compressed once per address at start).
    const preloads = async (url: string) => {
      const res = await t.app.inject({ url, headers: { 'accept-encoding': 'gzip' } });
      const html = gunzipSync(res.rawPayload).toString();
      return [...html.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">/g)].map((m) => m[1]);
    };
    expect(await preloads('/customer/loyalty-ui/status?locale=en')).toEqual([
      '/assets/loyalty-routes-a1.js',
      '/assets/loyalty-status-route-b2.js',
    ]);
    expect(await preloads('/customer/loyalty-ui/history')).toEqual(['/assets/loyalty-routes-a1.js']);
    expect(await preloads('/customer/loyalty-ui')).toEqual(['/assets/loyalty-routes-a1.js']);
    // Not a sub-path: a name that only begins the same.
    expect(await preloads('/customer/loyalty-ui/statusx')).toEqual(['/assets/loyalty-routes-a1.js']);
    // Anything but a root-relative script of the build is left out.
    expect(await preloads('/DE/de/myaccount')).toEqual([]);
    expect(await preloads('/')).toEqual([]);
    expect(await preloads('/no-such-page')).toEqual([]);
  });

  it('preloads the sign-in client in a tab without a token, by the one inline script the CSP allows', async () => {
    const pageOf = async (url: string) => {
      const res = await t.app.inject({ url, headers: { 'accept-encoding': 'br' } });
      return {
        html: brotliDecompressSync(res.rawPayload).toString(),
        csp: String(res.headers['content-security-policy']),
      };
    };
    const scriptOf = (html: string) => /<script data-preload="([^"]*)">([^<]*)<\/script>/.exec(html);
    // The pages that sign in first: the start page, the sign-in's return, the account area, the loyalty app.
    for (const url of [
      '/',
      '/login/callback?code=x&state=y',
      '/DE/de/myaccount',
      '/NL/en/myaccount/profile',
      '/customer/loyalty-ui/status',
      '/customer/loyalty-ui/history',
    ]) {
      const { html, csp } = await pageOf(url);
      const script = scriptOf(html);
      expect(script, url).not.toBeNull();
      // Only the build's root-relative scripts are named, less what the page preloads anyway.
      expect(script![1]).toBe(
        url.startsWith('/customer/loyalty-ui')
          ? '/assets/user-manager-c3.js'
          : '/assets/user-manager-c3.js /assets/loyalty-routes-a1.js',
      );
      // It reads whether the tab holds a token and whether it runs in the native apps.
      expect(script![2]).toContain('sessionStorage.getItem("roadpass.token")');
      expect(script![2]).toContain('"is_webview"');
      // The CSP allows exactly this script: its hash, and no 'unsafe-inline'.
      const hash = createHash('sha256').update(script![2]!).digest('base64');
      expect(csp).toContain(`script-src 'self' 'sha256-${hash}'`);
      expect(csp).not.toContain('unsafe-inline');
      // Its one script: the configuration block is data.
      expect(html.match(/<script(?! type="application\/json")[^>]*>(?!<\/script>)/g)).toHaveLength(1);
    }
    // The address's own preloads stay (decision 0070).
    expect((await pageOf('/customer/loyalty-ui/status')).html).toContain(
      'href="/assets/loyalty-status-route-b2.js"',
    );
    // Pages that never sign in: the loyalty demo, the e-mail links, the payment profiles' target, 404s.
    for (const url of [
      '/customer/loyalty-ui/demo',
      '/customer/loyalty-ui/demo/',
      '/newsletter/unsubscribe/abc',
      '/email/confirm/abc',
      '/web/payment/customer/payment-profiles/',
      '/no-such-page',
    ])
      expect(scriptOf((await pageOf(url)).html), url).toBeNull();
  });

  it('caches hashed assets for a year', async () => {
    const res = await t.app.inject({ url: '/assets/index-abc123.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('serves assets of a rebuild without a restart', async () => {
    await writeFile(path.join(dist, 'assets', 'index-new456.js'), 'console.log(2)');
    const res = await t.app.inject({ url: '/assets/index-new456.js' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('console.log(2)');
  });

  // Issue "foundations": unknown addresses got raw JSON unless the request said it wanted HTML.
  it.each([
    ['/wp-admin', 'text/html,application/xhtml+xml'],
    ['/wp-admin', 'application/json'],
    ['/de/DE/myaccount', '*/*'],
    ['/../etc/passwd', undefined],
    ['/DE/de/nothing-here?utm_source=mail', undefined],
  ])(
    'answers a GET of the unknown page %s (Accept: %s) with the app (its not-found page) and status 404',
    async (url, accept) => {
      const res = await t.app.inject({ url, headers: accept ? { accept } : {} });
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.body).toContain('<div id="root">');
    },
  );

  it('answers a HEAD of an unknown page with the not-found status of the page', async () => {
    const res = await t.app.inject({ method: 'HEAD', url: '/no/such/page' });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.body).toBe('');
  });

  it.each([
    ['GET', '/assets/missing.js'],
    ['GET', '/auth/realms/customer/nothing'],
    ['GET', '/favicon.ico'],
    ['GET', '/wp-login.php'],
    ['POST', '/wp-admin'],
    ['DELETE', '/DE/de/nothing-here'],
  ])('answers %s %s with the JSON 404 of the API, never the page', async (method, url) => {
    const res = await t.app.inject({ method: method as 'GET', url, headers: { accept: 'text/html' } });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.json()).toMatchObject({ status: 404, code: 'not_found' });
  });

  it('answers an unknown API address with JSON, never the page (a bearer token is asked for first)', async () => {
    const res = await t.app.inject({ url: '/api/customer/nothing', headers: { accept: 'text/html' } });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ status: 401, code: 'unauthorized' });
  });

  it('does not serve the app for non-GET requests', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/DE/de/myaccount' });
    expect(res.statusCode).toBe(404);
  });

  it.each([
    ['br', 'br', (body: Buffer) => brotliDecompressSync(body)],
    ['gzip', 'gzip', (body: Buffer) => gunzipSync(body)],
    ['gzip, deflate, br', 'br', (body: Buffer) => brotliDecompressSync(body)],
  ] as const)('sends the precompressed copy for Accept-Encoding: %s', async (accept, encoding, decode) => {
    const res = await t.app.inject({ url: '/assets/big-def456.js', headers: { 'accept-encoding': accept } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe(encoding);
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(decode(res.rawPayload).toString()).toContain('Roadpass Roadpass');
    expect(res.rawPayload.length).toBeLessThan(500);
  });

  it.each([
    ['/DE/de/myaccount', 200],
    ['/no/such/page', 404],
  ])('sends the app page %s compressed too (status %s), never cached', async (url, status) => {
    const res = await t.app.inject({ url, headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(res.statusCode).toBe(status);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(brotliDecompressSync(res.rawPayload).toString()).toContain('<div id="root">');
  });

  it('answers a HEAD of a compressed file with its headers and no body', async () => {
    const res = await t.app.inject({
      method: 'HEAD',
      url: '/assets/big-def456.js',
      headers: { 'accept-encoding': 'br' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.rawPayload.length).toBe(0);
  });

  it('answers a repeated request for a compressed file with 304 and no body', async () => {
    const headers = { 'accept-encoding': 'br' };
    const first = await t.app.inject({ url: '/assets/big-def456.js', headers });
    const etag = first.headers.etag as string;
    expect(etag).toBeTruthy();
    const again = await t.app.inject({
      url: '/assets/big-def456.js',
      headers: { ...headers, 'if-none-match': etag },
    });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
  });

  it('sends a file the build left uncompressed (too small to gain) as it is, with its length', async () => {
    const res = await t.app.inject({
      url: '/assets/index-abc123.js',
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers['content-length']).toBe('14');
    expect(res.body).toBe('console.log(1)');
  });

  it('sends the file as it is to a client that accepts no compression', async () => {
    const res = await t.app.inject({
      url: '/assets/big-def456.js',
      headers: { 'accept-encoding': 'identity' },
    });
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body).toContain('Roadpass Roadpass');
  });
});

describe('compressed API responses', () => {
  it('compresses JSON above 1 kB for clients that accept it', async () => {
    const url = '/api/core-web/content/contentCollection/de-DE/loyalty-program';
    const res = await t.app.inject({ url, headers: { 'accept-encoding': 'br, gzip' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    const json = JSON.parse(brotliDecompressSync(res.rawPayload).toString()) as { texts: object };
    expect(Object.keys(json.texts).length).toBeGreaterThan(50);
    const plain = await t.app.inject({ url });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(res.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
  });

  it('says the answer varies with Accept-Encoding, and sends JSON as it is to a client that wants no compression', async () => {
    const url = '/api/core-web/content/contentCollection/de-DE/loyalty-program';
    const compressed = await t.app.inject({ url, headers: { 'accept-encoding': 'gzip' } });
    expect(compressed.headers['content-encoding']).toBe('gzip');
    expect(compressed.headers.vary).toMatch(/accept-encoding/i);
    expect(JSON.parse(gunzipSync(compressed.rawPayload).toString())).toHaveProperty('texts');

    const identity = await t.app.inject({ url, headers: { 'accept-encoding': 'identity' } });
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(identity.json()).toHaveProperty('texts');
  });

  it('answers a HEAD of a large JSON response with headers and no body', async () => {
    const url = '/api/core-web/content/contentCollection/de-DE/loyalty-program';
    const res = await t.app.inject({ method: 'HEAD', url, headers: { 'accept-encoding': 'br' } });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.length).toBe(0);
  });

  it('sends a 204 without a body or an encoding', async () => {
    const res = await t.app.inject({
      method: 'DELETE',
      url: '/__test__/faults',
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(res.statusCode).toBe(204);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.rawPayload.length).toBe(0);
  });

  it('sends small JSON as it is', async () => {
    const res = await t.app.inject({ url: '/config.json', headers: { 'accept-encoding': 'br, gzip' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
  });
});

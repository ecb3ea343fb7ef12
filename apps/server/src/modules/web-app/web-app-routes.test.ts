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
  await writeFile(
    path.join(dist, 'index.html'),
    '<!doctype html><title>Roadpass</title><div id="root"></div>',
  );
  await writeFile(path.join(dist, 'assets', 'index-abc123.js'), 'console.log(1)');
  // What the build's precompression writes next to a file (apps/web/build/precompress.ts).
  const script = `console.log(${JSON.stringify('Roadpass '.repeat(400))})`;
  await writeFile(path.join(dist, 'assets', 'big-def456.js'), script);
  await writeFile(path.join(dist, 'assets', 'big-def456.js.br'), brotliCompressSync(script));
  await writeFile(path.join(dist, 'assets', 'big-def456.js.gz'), gzipSync(script));
  t = await createTestApp({ webDistDir: dist });
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
    '/web/payment/customer/payment-profiles/',
  ])('answers the app address %s with index.html, not cached', async (url) => {
    const res = await t.app.inject({ url, headers: { accept: 'text/html' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.body).toContain('<div id="root">');
    expect(res.headers['cache-control']).toBe('no-cache');
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

  it.each(['/wp-admin', '/de/DE/myaccount', '/../etc/passwd', '/DE/de/nothing-here'])(
    'answers a browser asking for the unknown page %s with the app (its not-found page) and status 404',
    async (url) => {
      const res = await t.app.inject({ url, headers: { accept: 'text/html,application/xhtml+xml' } });
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.body).toContain('<div id="root">');
    },
  );

  it.each([
    ['/wp-admin', 'application/json'],
    ['/assets/missing.js', 'text/html'],
    ['/auth/realms/customer/nothing', 'text/html'],
  ])('answers %s (Accept: %s) with a JSON 404', async (url, accept) => {
    const res = await t.app.inject({ url, headers: { accept } });
    expect(res.statusCode).toBe(404);
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

  it('sends small JSON as it is', async () => {
    const res = await t.app.inject({ url: '/config.json', headers: { 'accept-encoding': 'br, gzip' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
  });
});

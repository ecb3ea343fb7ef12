import { mkdtemp, mkdir, writeFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
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

  it.each(['/wp-admin', '/de/DE/myaccount', '/assets/missing.js', '/../etc/passwd'])(
    'answers %s with a JSON 404',
    async (url) => {
      const res = await t.app.inject({ url });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ status: 404, code: 'not_found' });
    },
  );

  it('does not serve the app for non-GET requests', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/DE/de/myaccount' });
    expect(res.statusCode).toBe(404);
  });
});

import { brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '@roadpass/contracts';
import { createTestApp, type TestApp } from '../../testing/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

// Issue 21 §7: the reference page and its files come from this server, under a CSP of their own.
describe('GET /api/docs', () => {
  it('answers a page that loads Swagger UI from this server only, under a narrow CSP', async () => {
    const res = await t.app.inject({ url: apiPaths.apiReference });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/unsafe-(eval|inline)/);
    const sources = [...res.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(sources.length).toBeGreaterThanOrEqual(3);
    // Every file from this server: the app's icon, and the reference's own files.
    expect(sources.every((source) => source.startsWith('/') && !source.startsWith('//'))).toBe(true);
    for (const source of sources.filter((s) => s.startsWith('/api/'))) {
      const asset = await t.app.inject({ url: source, headers: { 'accept-encoding': 'br' } });
      expect(asset.statusCode, source).toBe(200);
    }
    expect(res.body).not.toMatch(/<script>|<style>|style="/);
  });

  it('serves the bundle compressed once, and cacheable for a year at its versioned address', async () => {
    const page = (await t.app.inject({ url: apiPaths.apiReference })).body;
    const bundle = /src="([^"]+swagger-ui-bundle\.js[^"]*)"/.exec(page)![1]!;
    const res = await t.app.inject({ url: bundle, headers: { 'accept-encoding': 'gzip, br' } });
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.rawPayload.length).toBeLessThan(500_000);
    expect(brotliDecompressSync(res.rawPayload).toString('utf8')).toContain('SwaggerUIBundle');
  });

  it('keeps the API answers under the API’s own CSP', async () => {
    const res = await t.app.inject({ url: apiPaths.openApiDocument });
    expect(res.headers['content-security-policy']).toBe("default-src 'none';frame-ancestors 'none'");
  });
});

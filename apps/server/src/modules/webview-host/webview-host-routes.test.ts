import { afterEach, describe, expect, it } from 'vitest';
import { appPaths } from '@roadpass/contracts';
import { createTestApp, type TestApp } from '../../testing/test-app.js';

describe('the webview host page (outside production)', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('serves the page, its script and its stylesheet under the strict CSP, framing only itself', async () => {
    t = await createTestApp();
    const page = await t.app.inject({ method: 'GET', url: appPaths.devWebviewHost });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain(`<script type="module" src="${appPaths.devWebviewHost}/host.js"></script>`);
    expect(page.body).toContain('data-authority="http://localhost:8080/auth/realms/customer"');
    expect(page.body).toContain(`data-app-path="${appPaths.loyaltyBase}/status"`);
    // No inline script or style: every <script> has a src.
    expect(page.body.match(/<script(?![^>]*\bsrc=)[^>]*>/g)).toBeNull();
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).toContain("frame-ancestors 'self'");

    const script = await t.app.inject({ method: 'GET', url: `${appPaths.devWebviewHost}/host.js` });
    expect(script.statusCode).toBe(200);
    expect(script.headers['content-type']).toMatch(/^text\/javascript/);
    expect(script.body).toContain('answerAuthTokenRefresh');
    // The customer's consent choice, passed in the start address as a native app passes it.
    for (const value of ['', 'none', 'analytics,error-reporting', 'analytics', 'error-reporting'])
      expect(page.body).toContain(`<input type="radio" name="consent" value="${value}"`);
    expect(page.body).toContain('<input type="checkbox" id="tracking-opt-out">');
    expect(script.body).toContain("url.searchParams.set('consent', consent)");
    const css = await t.app.inject({ method: 'GET', url: `${appPaths.devWebviewHost}/host.css` });
    expect(css.statusCode).toBe(200);
    expect(css.headers['content-type']).toMatch(/^text\/css/);
  });

  it('is registered as a redirect address of the app client, so the page signs in like the native app', async () => {
    t = await createTestApp();
    const response = await t.app.inject({
      method: 'GET',
      url:
        '/auth/realms/customer/protocol/openid-connect/auth?' +
        new URLSearchParams({
          client_id: t.config.oidcClientId,
          redirect_uri: `${t.config.publicUrl}${appPaths.devWebviewHost}`,
          response_type: 'code',
          scope: 'openid',
          code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
          code_challenge_method: 'S256',
        }).toString(),
    });
    // To the sign-in page, not the provider's "redirect_uri did not match" error.
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toMatch(/\/login-actions\//);
  });

  it('does not exist in production', async () => {
    t = await createTestApp({ env: 'production', seedDemoData: false });
    for (const url of [appPaths.devWebviewHost, `${appPaths.devWebviewHost}/host.js`]) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(404);
      expect(response.body).not.toContain('answerAuthTokenRefresh');
    }
  });
});

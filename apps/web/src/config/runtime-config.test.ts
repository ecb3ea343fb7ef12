import { describe, expect, it, vi } from 'vitest';
import { createHttpClient } from '@/lib/http';
import { createFakeFetch, jsonResponse } from '@/testing/fake-fetch';
import { embeddedRuntimeConfig, loadRuntimeConfig, validateRuntimeConfig } from './runtime-config';

const valid = {
  environment: 'local',
  identityProvider: { url: 'http://localhost:8080/auth', realm: 'customer', clientId: 'portal-client' },
  errorReporting: { dsn: null, tracesSampleRate: 1, serverErrorStatuses: [500] },
  tagManager: { id: null, url: 'https://www.googletagmanager.com/gtm.js' },
};

describe('runtime config', () => {
  it('accepts a valid config', () => {
    expect(validateRuntimeConfig(valid)).toEqual({ ok: true, config: valid });
  });

  it('lists every problem readably', () => {
    const result = validateRuntimeConfig({
      ...valid,
      environment: 'staging',
      identityProvider: { url: '', realm: 'customer' },
      errorReporting: { dsn: 3, tracesSampleRate: 2, serverErrorStatuses: [404] },
      tagManager: { id: null, url: '' },
    });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.problems).toEqual([
      'environment must be one of production, integration, local, test (found "staging")',
      'identityProvider.url must be a URL (found "")',
      'identityProvider.clientId must be a non-empty string (found nothing)',
      'errorReporting.dsn must be a string or null (found 3)',
      'errorReporting.tracesSampleRate must be a number from 0 to 1 (found 2)',
      'errorReporting.serverErrorStatuses must be a list of statuses from 500 to 599 (found [404])',
      'tagManager.url must be a URL (found "")',
    ]);
  });

  it('takes the realm’s endpoints when given, each an absolute URL', () => {
    const issuer = 'https://roadpass.example/auth/realms/customer';
    const metadata = {
      issuer,
      authorization_endpoint: `${issuer}/protocol/openid-connect/auth`,
      token_endpoint: `${issuer}/protocol/openid-connect/token`,
      end_session_endpoint: `${issuer}/protocol/openid-connect/logout`,
      revocation_endpoint: `${issuer}/protocol/openid-connect/revoke`,
      userinfo_endpoint: `${issuer}/protocol/openid-connect/userinfo`,
    };
    const withMetadata = { ...valid, identityProvider: { ...valid.identityProvider, metadata } };
    expect(validateRuntimeConfig(withMetadata)).toEqual({ ok: true, config: withMetadata });
    const relative = {
      ...valid,
      identityProvider: { ...valid.identityProvider, metadata: { ...metadata, token_endpoint: '/token' } },
    };
    expect(validateRuntimeConfig(relative)).toEqual({
      ok: false,
      problems: [
        'identityProvider.metadata must be absent or { issuer, authorization_endpoint, token_endpoint, end_session_endpoint, revocation_endpoint, userinfo_endpoint }, each an absolute URL (found ' +
          JSON.stringify(relative.identityProvider.metadata) +
          ')',
      ],
    });
  });

  it('rejects a non-object', () => {
    expect(validateRuntimeConfig('nope')).toEqual({
      ok: false,
      problems: ['config.json must be a JSON object'],
    });
  });

  it('loads /config.json', async () => {
    const server = createFakeFetch({ 'GET /config.json': jsonResponse(valid) });
    const result = await loadRuntimeConfig(createHttpClient({ fetch: server.fetch }));
    expect(result).toEqual({ ok: true, config: valid });
  });

  it('reports a config that cannot be loaded', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const server = createFakeFetch({ 'GET /config.json': new Response('gone', { status: 404 }) });
    const result = await loadRuntimeConfig(createHttpClient({ fetch: server.fetch }));
    expect(result).toEqual({ ok: false, problems: ['/config.json could not be loaded (HTTP 404)'] });
  });

  it('takes the configuration embedded in the page without asking /config.json', async () => {
    document.body.insertAdjacentHTML(
      'beforeend',
      `<script type="application/json" id="roadpass-config">${JSON.stringify(valid)}</script>`,
    );
    const server = createFakeFetch({});
    const result = await loadRuntimeConfig(createHttpClient({ fetch: server.fetch }));
    expect(result).toEqual({ ok: true, config: valid });
    expect(server.requests).toEqual([]);
    document.getElementById('roadpass-config')!.remove();
  });

  it('asks /config.json when the embedded block is missing or broken', () => {
    const page = { getElementById: () => ({ textContent: '{broken' }) as unknown as HTMLElement };
    expect(embeddedRuntimeConfig(page)).toBeUndefined();
    expect(embeddedRuntimeConfig({ getElementById: () => null })).toBeUndefined();
  });
});

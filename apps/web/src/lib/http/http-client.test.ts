import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createFakeFetch, jsonResponse } from '@/testing/fake-fetch';
import { createHttpClient, requestUrl, serverErrorHelper } from './http-client';
import { HttpError, supportReference } from './http-error';

const apiError = (status: number, code = 'x') => ({ status, code, message: `failed ${status}` });

describe('http client', () => {
  let consoleError: ReturnType<typeof vi.spyOn>;

  beforeEach(() => {
    consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
  });
  afterEach(() => {
    consoleError.mockRestore();
  });

  it('sends and receives JSON against the base address "/"', async () => {
    const server = createFakeFetch({ 'POST /api/things': jsonResponse({ id: 1 }, { status: 201 }) });
    const http = createHttpClient({ fetch: server.fetch });

    await expect(http.post('/api/things', { name: 'a' })).resolves.toEqual({ id: 1 });

    const [request] = server.requests;
    expect(new URL(request!.url).pathname).toBe('/api/things');
    expect(new URL(request!.url).origin).toBe(window.location.origin);
    expect(request!.headers.get('content-type')).toMatch(/application\/json/);
    expect(request!.headers.get('accept')).toMatch(/application\/json/);
    expect(JSON.parse(request!.body)).toEqual({ name: 'a' });
  });

  it('joins paths to a changed base address and adds query parameters', async () => {
    const server = createFakeFetch({ 'GET /v1/api/x': jsonResponse([]) });
    const http = createHttpClient({ fetch: server.fetch });
    http.setBaseUrl('https://api.example.com/v1/');

    await http.get('/api/x', { params: { page: 2, empty: undefined } });

    expect(server.requests[0]!.url).toBe('https://api.example.com/v1/api/x?page=2');
  });

  it('offers get, post, put, patch, delete and request with their methods', async () => {
    const server = createFakeFetch();
    for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']) {
      server.reply(`${method} /api/m`, jsonResponse({ method }));
    }
    const http = createHttpClient({ fetch: server.fetch });

    expect(await http.get('/api/m')).toEqual({ method: 'GET' });
    expect(await http.post('/api/m', {})).toEqual({ method: 'POST' });
    expect(await http.put('/api/m', {})).toEqual({ method: 'PUT' });
    expect(await http.patch('/api/m', {})).toEqual({ method: 'PATCH' });
    expect(await http.delete('/api/m')).toEqual({ method: 'DELETE' });
    expect(await http.request({ url: '/api/m', method: 'PUT', data: { a: 1 } })).toEqual({ method: 'PUT' });
  });

  it('resolves an empty success body as undefined', async () => {
    const server = createFakeFetch({ 'DELETE /api/x': new Response(null, { status: 204 }) });
    const http = createHttpClient({ fetch: server.fetch });
    await expect(http.delete('/api/x')).resolves.toBeUndefined();
  });

  it('rawGet resolves with the full response', async () => {
    const server = createFakeFetch({ 'GET /api/x': jsonResponse({ a: 1 }, { headers: { 'X-Total': '3' } }) });
    const http = createHttpClient({ fetch: server.fetch });

    const response = await http.rawGet<{ a: number }>('/api/x');

    expect(response.status).toBe(200);
    expect(response.data).toEqual({ a: 1 });
    expect(response.headers.get('X-Total')).toBe('3');
  });

  it('sends the bearer token set through the token-update callback and reports it', async () => {
    const onTokenChange = vi.fn();
    const server = createFakeFetch({ 'GET /api/x': jsonResponse({}) });
    const http = createHttpClient({ fetch: server.fetch, onTokenChange });

    await http.get('/api/x');
    http.setToken('abc');
    await http.get('/api/x');
    http.setToken('def');
    await http.get('/api/x');

    expect(server.requests.map((r) => r.headers.get('authorization'))).toEqual([
      null,
      'Bearer abc',
      'Bearer def',
    ]);
    expect(onTokenChange.mock.calls).toEqual([['abc'], ['def']]);
  });

  it('with a proof signer sends the token as DPoP with a proof of the call, and follows the nonce', async () => {
    const server = createFakeFetch({
      'GET /api/me': [
        jsonResponse(apiError(401), {
          status: 401,
          headers: { 'WWW-Authenticate': 'DPoP error="use_dpop_nonce"', 'DPoP-Nonce': 'n1' },
        }),
        jsonResponse({ ok: true }),
      ],
    });
    const http = createHttpClient({ fetch: server.fetch });
    const signer = vi.fn(async (htm: string, url: string, token: string, nonce?: string) =>
      [htm, url, token, nonce ?? '-'].join(' '),
    );
    http.setToken('tok');
    http.setProofSigner(signer);

    await expect(http.get('/api/me', { params: { q: 1 } })).resolves.toEqual({ ok: true });

    const url = `${window.location.origin}/api/me?q=1`;
    expect(server.requests.map((r) => r.headers.get('authorization'))).toEqual(['DPoP tok', 'DPoP tok']);
    expect(server.requests.map((r) => r.headers.get('dpop'))).toEqual([
      `GET ${url} tok -`,
      `GET ${url} tok n1`,
    ]);
    http.setProofSigner(null);
    await http.get('/api/me').catch(() => undefined);
    expect(server.requests[2]?.headers.get('authorization')).toBe('Bearer tok');
  });

  it('learns X-CSRF-TOKEN from any GET response and sends it on every later request', async () => {
    const server = createFakeFetch({
      'GET /api/a': [jsonResponse({}, { headers: { 'X-CSRF-TOKEN': 'c1' } }), jsonResponse({})],
      'GET /api/b': jsonResponse(apiError(404), { status: 404, headers: { 'X-CSRF-TOKEN': 'c2' } }),
      'POST /api/a': jsonResponse({}, { headers: { 'X-CSRF-TOKEN': 'ignored' } }),
      'PUT /api/a': jsonResponse({}),
    });
    const http = createHttpClient({ fetch: server.fetch });

    await http.post('/api/a', {});
    await http.get('/api/a');
    await http.post('/api/a', {});
    await http.get('/api/a');
    await http.get('/api/b').catch(() => {});
    await http.put('/api/a', {});

    expect(server.requests.map((r) => r.headers.get('x-csrf-token'))).toEqual([
      null,
      null,
      'c1',
      'c1',
      'c1',
      'c2',
    ]);
  });

  it('rejects a non-2xx response with a typed HttpError and logs "Http error"', async () => {
    const server = createFakeFetch({
      'PUT /api/x': jsonResponse(apiError(400, 'validation_failed'), { status: 400 }),
    });
    const http = createHttpClient({ fetch: server.fetch });

    const error = await http.put('/api/x', {}).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).status).toBe(400);
    expect((error as HttpError).body).toEqual(apiError(400, 'validation_failed'));
    expect(consoleError).toHaveBeenCalledWith('Http error', error);
  });

  it('treats 200 to 299 as success and everything else as failure', async () => {
    const server = createFakeFetch();
    const http = createHttpClient({ fetch: server.fetch });
    const outcome = async (status: number) => {
      server.reply(
        'GET /api/s',
        new Response(status === 204 || status === 304 ? null : '{}', {
          status,
          headers: { 'Content-Type': 'application/json' },
        }),
      );
      return http.get('/api/s').then(
        () => 'ok',
        (e: HttpError) => e.status,
      );
    };

    expect(await outcome(200)).toBe('ok');
    expect(await outcome(204)).toBe('ok');
    expect(await outcome(299)).toBe('ok');
    expect(await outcome(304)).toBe(304);
    expect(await outcome(404)).toBe(404);
    expect(await outcome(500)).toBe(500);
  });

  it('rejects a network failure with an HttpError of status 0', async () => {
    const failing = vi.fn(() => Promise.reject(new TypeError('Failed to fetch')));
    const http = createHttpClient({ fetch: failing as unknown as typeof fetch });

    const error = (await http.get('/api/x').catch((e: unknown) => e)) as HttpError;

    expect(error).toBeInstanceOf(HttpError);
    expect(error.status).toBe(0);
  });

  it('does not time out and does not retry', async () => {
    vi.useFakeTimers();
    try {
      let resolveSlow: (r: Response) => void = () => {};
      const slow = vi.fn(() => new Promise<Response>((resolve) => (resolveSlow = resolve)));
      const http = createHttpClient({ fetch: slow as unknown as typeof fetch });

      const pending = http.get('/api/slow');
      await vi.advanceTimersByTimeAsync(10 * 60_000);
      resolveSlow(jsonResponse(apiError(503), { status: 503 }));

      await expect(pending).rejects.toMatchObject({ status: 503 });
      expect(slow).toHaveBeenCalledTimes(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('runs request interceptors in order before the call', async () => {
    const server = createFakeFetch({ 'GET /api/x': jsonResponse({}) });
    const http = createHttpClient({ fetch: server.fetch });
    http.interceptors.request.use((config) => ({ ...config, headers: { ...config.headers, 'X-One': '1' } }));
    const ejected = http.interceptors.request.use((config) => ({ ...config, headers: { 'X-Gone': '1' } }));
    http.interceptors.request.use(async (config) => ({
      ...config,
      params: { q: config.headers?.['X-One'] },
    }));
    http.interceptors.request.eject(ejected);

    await http.get('/api/x');

    expect(server.requests[0]!.headers.get('x-one')).toBe('1');
    expect(server.requests[0]!.headers.get('x-gone')).toBeNull();
    expect(new URL(server.requests[0]!.url).search).toBe('?q=1');
  });

  it('lets response interceptors see and change successful responses', async () => {
    const server = createFakeFetch({ 'GET /api/x': jsonResponse({ n: 1 }) });
    const http = createHttpClient({ fetch: server.fetch });
    http.interceptors.response.use((response) => ({ ...response, data: { wrapped: response.data } }));

    await expect(http.get('/api/x')).resolves.toEqual({ wrapped: { n: 1 } });
  });

  it('uses the result of a promise returned by onRejected (a retry) instead of failing', async () => {
    const server = createFakeFetch({
      'GET /api/x': [jsonResponse(apiError(401), { status: 401 }), jsonResponse({ ok: true })],
    });
    const http = createHttpClient({ fetch: server.fetch });
    let retried = false;
    http.interceptors.response.use(undefined, (error) => {
      if (error instanceof HttpError && error.status === 401 && !retried) {
        retried = true;
        http.setToken('fresh');
        return http.rawGet('/api/x');
      }
    });

    await expect(http.get('/api/x')).resolves.toEqual({ ok: true });
    expect(server.requests[1]!.headers.get('authorization')).toBe('Bearer fresh');
    expect(consoleError).not.toHaveBeenCalled();
  });

  it('passes the error on when onRejected returns nothing', async () => {
    const server = createFakeFetch({ 'GET /api/x': jsonResponse(apiError(500), { status: 500 }) });
    const http = createHttpClient({ fetch: server.fetch });
    const seen = vi.fn();
    http.interceptors.response.use(undefined, seen);

    await expect(http.get('/api/x')).rejects.toMatchObject({ status: 500 });
    expect(seen).toHaveBeenCalledOnce();
    expect(consoleError).toHaveBeenCalledWith('Http error', expect.any(HttpError));
  });

  it('publicRequest bypasses interceptors, the bearer token and the anti-forgery header', async () => {
    const server = createFakeFetch({
      'GET /api/x': jsonResponse({}, { headers: { 'X-CSRF-TOKEN': 'c1' } }),
      'DELETE /api/public': jsonResponse({ done: true }),
    });
    const http = createHttpClient({ fetch: server.fetch });
    http.setToken('abc');
    await http.get('/api/x');
    const interceptor = vi.fn((config) => config);
    http.interceptors.request.use(interceptor);

    await expect(http.publicRequest({ url: '/api/public', method: 'DELETE' })).resolves.toEqual({
      done: true,
    });

    const request = server.requests[1]!;
    expect(request.headers.get('authorization')).toBeNull();
    expect(request.headers.get('x-csrf-token')).toBeNull();
    expect(interceptor).not.toHaveBeenCalled();
  });

  it('publicRequest still rejects failures with HttpError and logs them', async () => {
    const server = createFakeFetch({ 'GET /api/public': jsonResponse(apiError(503), { status: 503 }) });
    const http = createHttpClient({ fetch: server.fetch });

    await expect(http.publicRequest({ url: '/api/public' })).rejects.toBeInstanceOf(HttpError);
    expect(consoleError).toHaveBeenCalledWith('Http error', expect.any(HttpError));
  });
});

describe('serverErrorHelper', () => {
  const errorWith = (status: number) => new HttpError({ status, config: { url: '/api/x' } });

  it('runs the handler for 500 by default and passes the error on', () => {
    const handler = vi.fn();
    const helper = serverErrorHelper(handler);

    expect(() => helper(errorWith(500))).toThrow(HttpError);
    expect(handler).toHaveBeenCalledOnce();
    expect(() => helper(errorWith(503))).toThrow(HttpError);
    expect(handler).toHaveBeenCalledOnce();
  });

  it('runs the handler for a configured list of statuses', () => {
    const handler = vi.fn();
    const helper = serverErrorHelper(handler, [503, 504]);

    for (const status of [500, 503, 504, 400]) expect(() => helper(errorWith(status))).toThrow();
    expect(handler.mock.calls.map(([error]) => (error as HttpError).status)).toEqual([503, 504]);
  });

  it('works as a response interceptor', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const server = createFakeFetch({ 'GET /api/x': jsonResponse(apiError(500), { status: 500 }) });
    const http = createHttpClient({ fetch: server.fetch });
    const handler = vi.fn();
    http.interceptors.response.use(undefined, serverErrorHelper(handler));

    await expect(http.get('/api/x')).rejects.toMatchObject({ status: 500 });
    expect(handler).toHaveBeenCalledOnce();
  });
});

describe('requestUrl', () => {
  const page = 'https://app.example/customer/loyalty-ui/status';
  it('joins a path to the base address with one slash, on the page origin', () => {
    expect(requestUrl('/api/x', '/', undefined, page)).toBe('https://app.example/api/x');
    expect(requestUrl('api/x', '/base/', undefined, page)).toBe('https://app.example/base/api/x');
    expect(requestUrl('/api/x', 'https://api.example/v1', undefined, page)).toBe(
      'https://api.example/v1/api/x',
    );
  });

  it('keeps an absolute address and adds the defined query parameters to its own', () => {
    expect(requestUrl('https://cdn.example/a?b=1', '/', { c: 2, d: undefined, e: true }, page)).toBe(
      'https://cdn.example/a?b=1&c=2&e=true',
    );
    expect(requestUrl('/api/h', '/', { page_size: 100, page_index: 0 }, page)).toBe(
      'https://app.example/api/h?page_size=100&page_index=0',
    );
  });
});

describe('supportReference', () => {
  const id = '5f0c2d9e-8b1a-4c3d-9e2f-1a2b3c4d5e6f';
  const failing = (status: number, headers?: Record<string, string>) =>
    createHttpClient({
      fetch: createFakeFetch({
        'GET /api/thing': jsonResponse({ status, code: 'internal_error', message: 'x' }, { status, headers }),
      }).fetch,
    })
      .get('/api/thing')
      .catch((error: unknown) => error);

  beforeEach(() => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
  });
  afterEach(() => vi.restoreAllMocks());

  it("is the start of a server error's request id, also through an error that wraps it", async () => {
    const error = await failing(503, { 'x-request-id': id });
    expect(supportReference(error)).toBe('5f0c2d9e');
    expect(supportReference(new Error('Loading the user failed', { cause: error }))).toBe('5f0c2d9e');
  });

  it('is absent below 500, without an id, and without an answer', async () => {
    expect(supportReference(await failing(404, { 'x-request-id': id }))).toBeUndefined();
    expect(supportReference(await failing(500))).toBeUndefined();
    expect(supportReference(new HttpError({ status: 0, config: { url: '/api/thing' } }))).toBeUndefined();
    expect(supportReference(new Error('no call'))).toBeUndefined();
  });
});

import { CSRF_HEADER } from '@roadpass/contracts';
import { HttpError, isApiErrorBody } from './http-error';
import { InterceptorList } from './interceptors';
import type {
  HttpResponse,
  RequestConfig,
  RequestInterceptor,
  ResponseFulfilledInterceptor,
  ResponseRejectedInterceptor,
} from './types';

export interface HttpClientOptions {
  /** Base address every relative path is joined to; '/' by default (docs/product/api.md#calls). */
  baseUrl?: string;
  /** Called with each new bearer token handed to the client (the app stores it in its state). */
  onTokenChange?: (token: string | null) => void;
  /** Only for tests; the browser's fetch otherwise. */
  fetch?: typeof fetch;
}

type CallConfig = Omit<RequestConfig, 'url' | 'method' | 'data'>;

/** Signs a DPoP proof for one call: method, address, access token and the server's nonce if any. */
export type ProofSigner = (htm: string, url: string, token: string, nonce?: string) => Promise<string>;

export interface HttpClient {
  get<T = unknown>(url: string, config?: CallConfig): Promise<T>;
  delete<T = unknown>(url: string, config?: CallConfig): Promise<T>;
  post<T = unknown>(url: string, data?: unknown, config?: CallConfig): Promise<T>;
  put<T = unknown>(url: string, data?: unknown, config?: CallConfig): Promise<T>;
  patch<T = unknown>(url: string, data?: unknown, config?: CallConfig): Promise<T>;
  /** Any method; resolves with the response body. */
  request<T = unknown>(config: RequestConfig): Promise<T>;
  /** GET resolving with the full response (status, headers, data). */
  rawGet<T = unknown>(url: string, config?: CallConfig): Promise<HttpResponse<T>>;
  /** A call without the bearer token, the anti-forgery header and the interceptors (public calls). */
  publicRequest<T = unknown>(config: RequestConfig): Promise<T>;
  /** The token-update callback: every later call carries `Authorization: Bearer <token>`. */
  setToken(token: string | null): void;
  getToken(): string | null;
  /**
   * A DPoP-bound token (decision 0044): every later call carries `Authorization: DPoP <token>` and a
   * proof from `signer`; null goes back to bearer.
   */
  setProofSigner(signer: ProofSigner | null): void;
  setBaseUrl(baseUrl: string): void;
  interceptors: {
    request: { use(onFulfilled: RequestInterceptor): number; eject(id: number): void };
    response: {
      use(onFulfilled?: ResponseFulfilledInterceptor, onRejected?: ResponseRejectedInterceptor): number;
      eject(id: number): void;
    };
  };
}

interface ResponseInterceptor {
  onFulfilled?: ResponseFulfilledInterceptor | undefined;
  onRejected?: ResponseRejectedInterceptor | undefined;
}

const absoluteUrl = /^[a-z][a-z\d+.-]*:\/\//i;

function isRawBody(data: unknown): data is BodyInit {
  return (
    typeof data === 'string' ||
    data instanceof FormData ||
    data instanceof URLSearchParams ||
    data instanceof Blob ||
    data instanceof ArrayBuffer
  );
}

/**
 * The address of a call: a relative path joined to the client's base address with one slash, resolved
 * against the page (so the default '/' means this origin), with the defined query parameters added.
 */
export function requestUrl(
  url: string,
  baseUrl: string,
  params: RequestConfig['params'],
  pageBase: string = document.baseURI,
): string {
  const joined = absoluteUrl.test(url) ? url : `${baseUrl.replace(/\/+$/, '')}/${url.replace(/^\/+/, '')}`;
  const target = new URL(joined, pageBase);
  for (const [name, value] of Object.entries(params ?? {})) {
    if (value !== undefined) target.searchParams.set(name, String(value));
  }
  return target.href;
}

async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204 || response.status === 205) return undefined;
  // A file (the data export's ZIP) stays bytes.
  if (/^application\/(zip|octet-stream)\b/i.test(response.headers.get('content-type') ?? ''))
    return response.blob();
  const text = await response.text();
  if (text === '') return undefined;
  const contentType = response.headers.get('content-type') ?? '';
  if (!/\bjson\b/i.test(contentType)) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** docs/product/api.md#calls: a rejected call stays rejected unless the interceptor returns a promise (e.g. a retry). */
function recoverOrRethrow(onRejected: ResponseRejectedInterceptor, error: unknown): Promise<HttpResponse> {
  const result = onRejected(error);
  if (result && typeof (result as Promise<HttpResponse>).then === 'function')
    return result as Promise<HttpResponse>;
  throw error;
}

/**
 * The main HTTP client (docs/product/api.md#calls) on the browser's fetch: bearer token, anti-forgery header, interceptors,
 * typed errors, no time-out, no retries. (It used ky for URL joining and JSON bodies until issue 10:
 * 9 kB gzip on every first load for what requestUrl and JSON.stringify do here; decision web-http-client.)
 */
export function createHttpClient(options: HttpClientOptions = {}): HttpClient {
  let baseUrl = options.baseUrl ?? '/';
  let token: string | null = null;
  let csrfToken: string | null = null;
  let signer: ProofSigner | null = null;
  /** The API's last DPoP nonce (RFC 9449 §9), sent in the next proofs. */
  let dpopNonce: string | undefined;

  const fetchImpl = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));

  const requestInterceptors = new InterceptorList<RequestInterceptor>();
  const responseInterceptors = new InterceptorList<ResponseInterceptor>();

  /** One round trip; rejects with HttpError for statuses outside 200–299 and for network failures. */
  async function send(config: RequestConfig, withAuth: boolean, nonceRetry = false): Promise<HttpResponse> {
    const method = config.method ?? 'GET';
    const headers = new Headers({ Accept: 'application/json', ...config.headers });
    const url = requestUrl(config.url, baseUrl, config.params);
    const proofSigner = withAuth && token ? signer : null;
    if (proofSigner && token) {
      headers.set('Authorization', `DPoP ${token}`);
      headers.set('DPoP', await proofSigner(method, url, token, dpopNonce));
    } else if (withAuth && token) headers.set('Authorization', `Bearer ${token}`);
    if (withAuth && csrfToken) headers.set(CSRF_HEADER, csrfToken);

    let body: BodyInit | undefined;
    if (config.data !== undefined && isRawBody(config.data)) body = config.data;
    else if (config.data !== undefined) {
      body = JSON.stringify(config.data);
      if (!headers.has('Content-Type')) headers.set('Content-Type', 'application/json');
    }

    let response: Response;
    try {
      response = await fetchImpl(url, {
        method,
        headers,
        ...(body === undefined ? {} : { body }),
        ...(config.signal ? { signal: config.signal } : {}),
      });
    } catch (cause) {
      throw new HttpError({ status: 0, config, cause });
    }

    // The anti-forgery token is learned from any GET response that carries it.
    const learned = method === 'GET' ? response.headers.get(CSRF_HEADER) : null;
    if (learned) csrfToken = learned;
    if (proofSigner) {
      dpopNonce = response.headers.get('DPoP-Nonce') ?? dpopNonce;
      // The server asks for its nonce: once more with it (RFC 9449 §9).
      if (
        response.status === 401 &&
        !nonceRetry &&
        /use_dpop_nonce/.test(response.headers.get('WWW-Authenticate') ?? '')
      )
        return send(config, withAuth, true);
    }

    const data = await readBody(response);
    if (response.status < 200 || response.status > 299) {
      throw new HttpError({
        status: response.status,
        config,
        body: isApiErrorBody(data) ? data : undefined,
        headers: response.headers,
      });
    }
    return { status: response.status, headers: response.headers, data, config };
  }

  function logAndReject(error: unknown): never {
    console.error('Http error', error);
    throw error;
  }

  /** Request interceptors, the call, then the response interceptors in order (axios semantics). */
  async function run(config: RequestConfig): Promise<HttpResponse> {
    let chain: Promise<HttpResponse> = requestInterceptors
      .list()
      .reduce<Promise<RequestConfig>>((next, interceptor) => next.then(interceptor), Promise.resolve(config))
      .then((finalConfig) => send(finalConfig, true));
    for (const { onFulfilled, onRejected } of responseInterceptors.list()) {
      chain = chain.then(
        onFulfilled,
        onRejected && ((error: unknown) => recoverOrRethrow(onRejected, error)),
      );
    }
    return chain.catch(logAndReject);
  }

  const call =
    (method: 'GET' | 'DELETE') =>
    <T>(url: string, config: CallConfig = {}) =>
      run({ ...config, url, method }).then((response) => response.data as T);
  const callWithBody =
    (method: 'POST' | 'PUT' | 'PATCH') =>
    <T>(url: string, data?: unknown, config: CallConfig = {}) =>
      run({ ...config, url, method, data }).then((response) => response.data as T);

  return {
    get: call('GET'),
    delete: call('DELETE'),
    post: callWithBody('POST'),
    put: callWithBody('PUT'),
    patch: callWithBody('PATCH'),
    request: <T>(config: RequestConfig) => run(config).then((response) => response.data as T),
    rawGet: <T>(url: string, config: CallConfig = {}) =>
      run({ ...config, url, method: 'GET' }) as Promise<HttpResponse<T>>,
    publicRequest: <T>(config: RequestConfig) =>
      send(config, false)
        .catch(logAndReject)
        .then((response) => response.data as T),
    setToken(next) {
      token = next;
      options.onTokenChange?.(next);
    },
    getToken: () => token,
    setProofSigner(next) {
      signer = next;
    },
    setBaseUrl(next) {
      baseUrl = next;
    },
    interceptors: {
      request: {
        use: (onFulfilled) => requestInterceptors.use(onFulfilled),
        eject: (id) => requestInterceptors.eject(id),
      },
      response: {
        use: (onFulfilled, onRejected) => responseInterceptors.use({ onFulfilled, onRejected }),
        eject: (id) => responseInterceptors.eject(id),
      },
    },
  };
}

/**
 * docs/product/api.md#calls: runs `handler` when a failed call has one of `statuses` (500 by default), then passes the
 * error on. Use as a response interceptor's onRejected or in a call's catch.
 */
export function serverErrorHelper(
  handler: (error: HttpError) => void,
  statuses: readonly number[] = [500],
): (error: unknown) => never {
  return (error) => {
    if (error instanceof HttpError && statuses.includes(error.status)) handler(error);
    throw error;
  };
}

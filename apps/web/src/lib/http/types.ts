export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD';

export type QueryParams = Record<string, string | number | boolean | undefined>;

/** One call, axios-style: the shape request interceptors receive and may change. */
export interface RequestConfig {
  url: string;
  method?: HttpMethod;
  /** Request body; plain values are sent as JSON, FormData/URLSearchParams/Blob/string as they are. */
  data?: unknown;
  params?: QueryParams;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/** What rawGet returns and response interceptors receive. */
export interface HttpResponse<T = unknown> {
  status: number;
  headers: Headers;
  data: T;
  config: RequestConfig;
}

export type RequestInterceptor = (config: RequestConfig) => RequestConfig | Promise<RequestConfig>;
export type ResponseFulfilledInterceptor = (response: HttpResponse) => HttpResponse | Promise<HttpResponse>;
/**
 * Receives the error of a failed call. Returning a promise (for example a retry) makes its outcome the
 * call's outcome; returning nothing or throwing passes the error on.
 */
export type ResponseRejectedInterceptor = (error: unknown) => Promise<HttpResponse> | void;

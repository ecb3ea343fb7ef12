export { createHttpClient, serverErrorHelper } from './http-client';
export type { HttpClient, HttpClientOptions, ProofSigner } from './http-client';
export {
  HttpError,
  hasErrorCode,
  isHttpError,
  isApiErrorBody,
  isOfflineError,
  supportReference,
} from './http-error';
export type * from './types';
export { HttpClientProvider, useHttp } from './http-context';
export { retryAfterRenewal } from './retry-after-renewal';

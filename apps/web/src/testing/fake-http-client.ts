import { vi } from 'vitest';
import type { HttpClient } from '@/lib/http';

const unexpected = (name: string) =>
  vi.fn(() => Promise.reject(new Error(`Unexpected HTTP call in test: ${name}`))) as never;

/** A stand-in for the HTTP layer: every call fails unless the test says otherwise. */
export function createFakeHttpClient(overrides: Partial<HttpClient> = {}): HttpClient {
  let token: string | null = null;
  return {
    get: unexpected('get'),
    delete: unexpected('delete'),
    post: unexpected('post'),
    put: unexpected('put'),
    patch: unexpected('patch'),
    request: unexpected('request'),
    rawGet: unexpected('rawGet'),
    publicRequest: unexpected('publicRequest'),
    setToken: vi.fn((next: string | null) => {
      token = next;
    }),
    getToken: () => token,
    setProofSigner: vi.fn(),
    setBaseUrl: vi.fn(),
    interceptors: {
      request: { use: vi.fn(() => 0), eject: vi.fn() },
      response: { use: vi.fn(() => 0), eject: vi.fn() },
    },
    ...overrides,
  };
}

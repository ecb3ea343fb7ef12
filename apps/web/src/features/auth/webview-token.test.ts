import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createHttpClient, type HttpClient } from '@/lib/http/http-client';
import {
  removeHostSetters,
  requestHostToken,
  resetHostBridge,
  useHostBridge,
} from '@/lib/native-bridge/host-bridge';
import { resetAppStore, useAppStore } from '@/lib/state/app-store';
import { jsonResponse } from '@/testing/fake-fetch';
import { installWebViewTokenSetter } from './webview-token';

/** An API that accepts only the bearer token `good`. */
const api = vi.fn(async (_input: RequestInfo | URL, init?: RequestInit) =>
  new Headers(init?.headers).get('Authorization') === 'Bearer good'
    ? jsonResponse({ ok: true })
    : jsonResponse({ status: 401, code: 'unauthorized', message: 'refused' }, { status: 401 }),
);

describe('the webview token (installWebViewTokenSetter)', () => {
  let http: HttpClient;
  /** What the app posted to the host (an iOS host: webkit.messageHandlers). */
  let asked: { requestId: string }[];
  /** How the host answers the next refreshAuthToken. */
  let hostAnswer: 'refuse' | 'token';

  beforeEach(() => {
    resetAppStore();
    resetHostBridge();
    sessionStorage.clear();
    useAppStore.getState().setEnvironment({ isWebView: true, trackingOptOut: false });
    asked = [];
    hostAnswer = 'refuse';
    window.webkit = {
      messageHandlers: {
        refreshAuthToken: {
          postMessage: (message) => {
            const { requestId } = message as { requestId: string };
            asked.push({ requestId });
            queueMicrotask(() =>
              window.answerAuthTokenRefresh!(
                hostAnswer === 'token'
                  ? { v: 1, type: 'authToken', requestId, token: 'good' }
                  : { v: 1, type: 'authTokenRefused', requestId },
              ),
            );
          },
        },
      },
    };
    vi.spyOn(console, 'error').mockImplementation(() => {});
    http = createHttpClient({ fetch: api });
  });
  afterEach(() => {
    delete window.webkit;
    removeHostSetters();
    resetHostBridge();
    vi.restoreAllMocks();
  });

  it('a host that refused is not asked again by later calls, only when the customer asks', async () => {
    const started = installWebViewTokenSetter(http);
    window.setAuthToken!({ v: 1, type: 'authToken', token: 'stale' });
    await started;

    // Start-up's call meets the 401: the host is asked, refuses, and the call's 401 stands.
    await expect(http.get('/api/customer')).rejects.toMatchObject({ status: 401 });
    expect(asked).toHaveLength(1);
    expect(useHostBridge.getState().expired).toBe(true);

    // A call made after the refusal (a query refetched, a late chunk's call) does not ask again.
    await expect(http.get('/api/deletion')).rejects.toMatchObject({ status: 401 });
    expect(asked).toHaveLength(1);

    // The customer presses "ask again": the host is asked, answers with a token, and calls work.
    hostAnswer = 'token';
    await expect(requestHostToken()).resolves.toBe('good');
    expect(asked).toHaveLength(2);
    expect(useHostBridge.getState().expired).toBe(false);
    await expect(http.get('/api/customer')).resolves.toEqual({ ok: true });

    // With a session that is not expired, a 401 asks the host again, and the call is sent once more.
    window.setAuthToken!({ v: 1, type: 'authToken', token: 'stale-again' });
    await expect(http.get('/api/customer')).resolves.toEqual({ ok: true });
    expect(asked).toHaveLength(3);
  });
});

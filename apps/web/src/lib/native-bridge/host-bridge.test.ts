import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetAppStore, useAppStore } from '@/lib/state/app-store';
import {
  HOST_TOKEN_TIMEOUT_MS,
  installHostSetters,
  parseHostMessage,
  requestHostToken,
  resetHostBridge,
  useHostBridge,
} from './host-bridge';

const token = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl';

describe('parseHostMessage', () => {
  it.each([
    [
      { v: 1, type: 'authToken', token },
      { type: 'authToken', token },
    ],
    [
      { v: 1, type: 'authToken', token, requestId: 'r1' },
      { type: 'authToken', token, requestId: 'r1' },
    ],
    [
      { v: 1, type: 'authTokenRefused', requestId: 'r2' },
      { type: 'authTokenRefused', requestId: 'r2' },
    ],
    [
      JSON.stringify({ v: 1, type: 'safeAreaInsets', top: 47, right: 0, bottom: 34, left: 0 }),
      { type: 'safeAreaInsets', top: 47, right: 0, bottom: 34, left: 0 },
    ],
    [
      { v: 1, type: 'pushNotificationFlags', enabled: true, loyalty: false, extra: 'dropped' },
      { type: 'pushNotificationFlags', enabled: true, loyalty: false },
    ],
  ])('reads %j', (raw, expected) => {
    expect(parseHostMessage(raw)).toEqual(expected);
  });

  it.each([
    ['no version', { type: 'authToken', token }],
    ['another version', { v: 2, type: 'authToken', token }],
    ['an unknown type', { v: 1, type: 'openDoors' }],
    ['a token with markup', { v: 1, type: 'authToken', token: '<script>alert(1)</script>' }],
    ['an empty token', { v: 1, type: 'authToken', token: '' }],
    ['a number as token', { v: 1, type: 'authToken', token: 42 }],
    ['a negative inset', { v: 1, type: 'safeAreaInsets', top: -1, right: 0, bottom: 0, left: 0 }],
    ['a missing inset', { v: 1, type: 'safeAreaInsets', top: 1, right: 0, bottom: 0 }],
    ['an inset as text', { v: 1, type: 'safeAreaInsets', top: '10px', right: 0, bottom: 0, left: 0 }],
    ['flags as text', { v: 1, type: 'pushNotificationFlags', enabled: 'yes', loyalty: true }],
    ['an overlong request id', { v: 1, type: 'authTokenRefused', requestId: 'x'.repeat(65) }],
    ['broken JSON', '{"v":1,'],
    ['null', null],
    ['an array', [1, 'authToken']],
  ])('ignores %s', (_label, raw) => {
    expect(parseHostMessage(raw)).toBeNull();
  });
});

describe('the host setters and the token request', () => {
  let posted: unknown[];
  let applied: string[];
  let warn: ReturnType<typeof vi.spyOn>;

  beforeEach(() => {
    resetAppStore();
    resetHostBridge();
    useAppStore.getState().setEnvironment({ isWebView: true, trackingOptOut: false });
    posted = [];
    applied = [];
    window.webkit = {
      messageHandlers: { refreshAuthToken: { postMessage: (m: unknown) => posted.push(m) } },
    };
    installHostSetters((t) => applied.push(t));
    warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
  });
  afterEach(() => {
    delete window.webkit;
    vi.useRealTimers();
    vi.restoreAllMocks();
    document.documentElement.removeAttribute('style');
  });

  it('asks the host with a request id and resolves with the token of its answer', async () => {
    const answer = requestHostToken();
    expect(useHostBridge.getState().refreshing).toBe(true);
    expect(posted).toEqual([{ v: 1, type: 'refreshAuthToken', requestId: expect.any(String) }]);
    const { requestId } = posted[0] as { requestId: string };
    window.answerAuthTokenRefresh!({ v: 1, type: 'authToken', requestId, token });
    await expect(answer).resolves.toBe(token);
    expect(applied).toEqual([token]);
    expect(useHostBridge.getState()).toMatchObject({ refreshing: false, expired: false });
  });

  it('shares one request between callers', async () => {
    const first = requestHostToken();
    const second = requestHostToken();
    expect(posted).toHaveLength(1);
    window.setAuthToken!(token);
    await expect(Promise.all([first, second])).resolves.toEqual([token, token]);
  });

  it('a refusal rejects and marks the session expired', async () => {
    const answer = requestHostToken();
    const { requestId } = posted[0] as { requestId: string };
    window.answerAuthTokenRefresh!({ v: 1, type: 'authTokenRefused', requestId });
    await expect(answer).rejects.toThrow('no token');
    expect(useHostBridge.getState()).toMatchObject({ refreshing: false, expired: true });
    expect(applied).toEqual([]);
  });

  it('a host that does not answer in time leaves the session expired, not waiting for ever', async () => {
    vi.useFakeTimers();
    const answer = requestHostToken();
    const outcome = answer.catch((error: unknown) => error);
    vi.advanceTimersByTime(HOST_TOKEN_TIMEOUT_MS - 1);
    expect(useHostBridge.getState().refreshing).toBe(true);
    vi.advanceTimersByTime(1);
    expect(await outcome).toBeInstanceOf(Error);
    expect(useHostBridge.getState().expired).toBe(true);
  });

  it('a host without the refreshAuthToken handler gives the expired state at once', async () => {
    delete window.webkit;
    await expect(requestHostToken()).rejects.toThrow();
    expect(useHostBridge.getState().expired).toBe(true);
  });

  it('asking again after a refusal can succeed', async () => {
    const first = requestHostToken();
    window.answerAuthTokenRefresh!({
      v: 1,
      type: 'authTokenRefused',
      requestId: (posted[0] as { requestId: string }).requestId,
    });
    await first.catch(() => undefined);
    const second = requestHostToken();
    const { requestId } = posted[1] as { requestId: string };
    expect(requestId).not.toBe((posted[0] as { requestId: string }).requestId);
    window.answerAuthTokenRefresh!({ v: 1, type: 'authToken', requestId, token });
    await expect(second).resolves.toBe(token);
    expect(useHostBridge.getState().expired).toBe(false);
  });

  it('ignores and logs an answer to another request, and malformed or unknown messages', () => {
    void requestHostToken().catch(() => undefined);
    window.answerAuthTokenRefresh!({ v: 1, type: 'authToken', requestId: 'stale', token });
    window.setAuthToken!('not a token!');
    window.setAuthToken!({ v: 1, type: 'authTokenRefused' });
    window.setSafeAreaInsets!({ v: 1, type: 'pushNotificationFlags', enabled: true, loyalty: true });
    window.setPushNotificationFlags!({ v: 1, type: 'pushNotificationFlags', enabled: 1, loyalty: true });
    window.answerAuthTokenRefresh!({ v: 1, type: 'launchRocket' });
    expect(applied).toEqual([]);
    expect(useHostBridge.getState()).toMatchObject({ refreshing: true, push: null });
    expect(warn).toHaveBeenCalledTimes(6);
    expect(warn).toHaveBeenCalledWith(
      '[native-bridge] ignored a message from the host app',
      expect.anything(),
    );
  });

  it('sets the safe-area insets as CSS custom properties on the root', () => {
    window.setSafeAreaInsets!({ v: 1, type: 'safeAreaInsets', top: 47, right: 0, bottom: 34, left: 12 });
    const style = document.documentElement.style;
    expect(style.getPropertyValue('--safe-top')).toBe('47px');
    expect(style.getPropertyValue('--safe-bottom')).toBe('34px');
    expect(style.getPropertyValue('--safe-left')).toBe('12px');
    expect(useHostBridge.getState().insets).toEqual({ top: 47, right: 0, bottom: 34, left: 12 });
  });

  it('keeps the push notification flags the host sends (JSON text too, as Android passes it)', () => {
    window.setPushNotificationFlags!(
      JSON.stringify({ v: 1, type: 'pushNotificationFlags', enabled: true, loyalty: false }),
    );
    expect(useHostBridge.getState().push).toEqual({ enabled: true, loyalty: false });
  });
});

describe('a token request while offline', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    delete window.webkit;
  });

  it('is no expiry: the host is asked again once the network is back', async () => {
    resetAppStore();
    resetHostBridge();
    useAppStore.getState().setEnvironment({ isWebView: true, trackingOptOut: false });
    const posted: { requestId: string }[] = [];
    window.webkit = {
      messageHandlers: {
        refreshAuthToken: { postMessage: (m: unknown) => posted.push(m as { requestId: string }) },
      },
    };
    installHostSetters(() => {});
    const onLine = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    const first = requestHostToken();
    window.answerAuthTokenRefresh!({ v: 1, type: 'authTokenRefused', requestId: posted[0]!.requestId });
    await first.catch(() => undefined);
    expect(useHostBridge.getState().expired).toBe(false);
    onLine.mockReturnValue(true);
    window.dispatchEvent(new Event('online'));
    expect(posted).toHaveLength(2);
    window.answerAuthTokenRefresh!({ v: 1, type: 'authToken', requestId: posted[1]!.requestId, token });
    expect(useHostBridge.getState()).toMatchObject({ expired: false, refreshing: false });
  });
});

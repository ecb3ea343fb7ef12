import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetAppStore, useAppStore } from '@/lib/state/app-store';
import {
  checkHistory,
  clearHistory,
  copyToClipboard,
  didNavigateBackward,
  didNavigateForward,
  enableLoyaltyPushNotifications,
  isWebView,
  pointsExpiryHint,
  refreshAuthToken,
  type BridgeMessageName,
} from '.';

const messageNames: BridgeMessageName[] = [
  'refreshAuthToken',
  'copyToClipboard',
  'clearHistory',
  'checkHistory',
  'didNavigateBackward',
  'didNavigateForward',
  'enableLoyaltyPushNotifications',
  'pointsExpiryHint',
];

const hint = {
  key: '2027-03-01T09:00:00.000Z:days-30',
  points: 850,
  expiresAt: '2027-03-01T09:00:00.000Z',
  title: 'Your points expire soon',
  text: '850 points expire on 1 March',
};

/** Every call of the bridge's API once, with the payload each should send. */
const calls: [BridgeMessageName, () => unknown, unknown][] = [
  ['refreshAuthToken', () => refreshAuthToken('r7'), { v: 1, type: 'refreshAuthToken', requestId: 'r7' }],
  ['copyToClipboard', () => copyToClipboard('RP-1234'), { v: 1, type: 'copyToClipboard', text: 'RP-1234' }],
  ['clearHistory', clearHistory, { v: 1, type: 'clearHistory' }],
  ['checkHistory', checkHistory, { v: 1, type: 'checkHistory' }],
  [
    'didNavigateBackward',
    () => didNavigateBackward('/customer/loyalty-ui/status'),
    { v: 1, type: 'didNavigateBackward', path: '/customer/loyalty-ui/status' },
  ],
  [
    'didNavigateForward',
    () => didNavigateForward('/customer/loyalty-ui/history'),
    { v: 1, type: 'didNavigateForward', path: '/customer/loyalty-ui/history' },
  ],
  [
    'enableLoyaltyPushNotifications',
    enableLoyaltyPushNotifications,
    { v: 1, type: 'enableLoyaltyPushNotifications' },
  ],
  ['pointsExpiryHint', () => pointsExpiryHint(hint), { v: 1, type: 'pointsExpiryHint', ...hint }],
];

function installIosHost() {
  const handlers = Object.fromEntries(messageNames.map((name) => [name, { postMessage: vi.fn() }]));
  window.webkit = { messageHandlers: handlers };
  return handlers;
}

function installAndroidHost() {
  const host = Object.fromEntries(
    messageNames.map((name) => [
      name,
      vi.fn(function (this: unknown) {
        // Injected Java methods throw unless called on their object.
        if (this !== window.RoadpassAndroid) throw new Error('not called on the interface object');
      }),
    ]),
  );
  window.RoadpassAndroid = host;
  return host;
}

function enterWebView(isWebView: boolean) {
  useAppStore.getState().setEnvironment({ isWebView, trackingOptOut: false });
}

describe('native bridge', () => {
  beforeEach(() => {
    resetAppStore();
  });
  afterEach(() => {
    delete window.webkit;
    delete window.RoadpassAndroid;
  });

  it('reads webview mode from the app state', () => {
    expect(isWebView()).toBe(false);
    enterWebView(true);
    expect(isWebView()).toBe(true);
  });

  describe('outside a webview', () => {
    it.each(calls.filter(([name]) => name !== 'copyToClipboard'))(
      '%s does nothing, even with host handlers present',
      (_name, call) => {
        const ios = installIosHost();
        const android = installAndroidHost();

        expect(call()).toBe(false);

        for (const name of messageNames) {
          expect(ios[name]!.postMessage).not.toHaveBeenCalled();
          expect(android[name]).not.toHaveBeenCalled();
        }
      },
    );

    it('copies with the browser clipboard', async () => {
      const writeText = vi.fn(() => Promise.resolve());
      vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
      const ios = installIosHost();

      await expect(copyToClipboard('RP-1234')).resolves.toBe(true);

      expect(writeText).toHaveBeenCalledWith('RP-1234');
      expect(ios.copyToClipboard!.postMessage).not.toHaveBeenCalled();
    });

    it('falls back to copying a selection when the clipboard API is refused', async () => {
      vi.stubGlobal('navigator', {
        ...navigator,
        clipboard: { writeText: () => Promise.reject(new Error('denied')) },
      });
      let copied = '';
      document.execCommand = vi.fn((command: string) => {
        copied = command === 'copy' ? (document.querySelector('textarea')?.value ?? '') : '';
        return true;
      });

      await expect(copyToClipboard('RP-1234')).resolves.toBe(true);

      expect(copied).toBe('RP-1234');
      expect(document.querySelector('textarea')).toBeNull();
    });

    it('reports failure when no way of copying works', async () => {
      vi.stubGlobal('navigator', { ...navigator, clipboard: undefined });
      document.execCommand = vi.fn(() => false);

      await expect(copyToClipboard('RP-1234')).resolves.toBe(false);
    });
  });

  describe('inside a webview', () => {
    beforeEach(() => enterWebView(true));

    it.each(calls)('%s posts its payload to the iOS message handler', async (name, call, payload) => {
      const ios = installIosHost();

      await expect(Promise.resolve(call())).resolves.toBe(true);

      expect(ios[name]!.postMessage).toHaveBeenCalledExactlyOnceWith(payload);
    });

    it.each(calls)('%s calls the Android interface with its payload as JSON', async (name, call, payload) => {
      const android = installAndroidHost();

      await expect(Promise.resolve(call())).resolves.toBe(true);

      expect(android[name]).toHaveBeenCalledExactlyOnceWith(JSON.stringify(payload));
    });

    it('warns and reports false when the host has no handler', () => {
      const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});

      expect(clearHistory()).toBe(false);

      expect(warn).toHaveBeenCalledWith(expect.stringContaining('clearHistory'));
    });

    it('keeps a failing host handler from breaking the app', () => {
      const error = vi.spyOn(console, 'error').mockImplementation(() => {});
      window.webkit = {
        messageHandlers: {
          clearHistory: {
            postMessage: () => {
              throw new Error('gone');
            },
          },
        },
      };

      expect(clearHistory()).toBe(false);
      expect(error).toHaveBeenCalled();
    });

    it('copies with the browser clipboard when the host cannot', async () => {
      vi.spyOn(console, 'warn').mockImplementation(() => {});
      const writeText = vi.fn(() => Promise.resolve());
      vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });

      await expect(copyToClipboard('RP-1234')).resolves.toBe(true);
      expect(writeText).toHaveBeenCalledWith('RP-1234');
    });
  });
});

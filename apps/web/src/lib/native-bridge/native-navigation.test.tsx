import { act, render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Router } from 'wouter';
import { navigate } from 'wouter/use-browser-location';
import { loyaltyRouteName, routes } from '@/config/routes';
import { resetAppStore, useAppStore } from '@/lib/state/app-store';
import { nativeNavigationAction, nativeRouteName, useNativeNavigation } from './native-navigation';

describe('nativeRouteName (docs/product/addresses-and-routes.md#screens-and-routes: every route that is not a loyalty route reports its moves)', () => {
  it('names loyalty routes by name and every other page by its path', () => {
    expect(nativeRouteName('/customer/loyalty-ui/status')).toBe(routes.loyalty.status.name);
    expect(nativeRouteName('/customer/loyalty-ui/')).toBe(routes.loyalty.entry.name);
    expect(nativeRouteName('/customer/loyalty-ui/no-such-screen')).toBeNull();
    expect(nativeRouteName('/DE/de/myaccount/profile')).toBe('/DE/de/myaccount/profile');
    expect(nativeRouteName('/web/payment/customer/payment-profiles/')).toBe(
      '/web/payment/customer/payment-profiles/',
    );
    expect(nativeRouteName(routes.authCallback.pattern)).toBeNull();
    expect(nativeNavigationAction(nativeRouteName('/DE/de/myaccount')!, 'backward')).toBe('backward');
  });
});

describe('nativeNavigationAction (docs/product/addresses-and-routes.md#screens-and-routes)', () => {
  it.each([
    ['loyalty-celebration', 'clear-history', 'clear-history'],
    ['loyalty-onboarding', 'clear-history', 'clear-history'],
    ['loyalty-status', 'clear-history', 'clear-history'],
    ['loyalty-loading', 'clear-history', 'clear-history'],
    ['loyalty-entry', 'forward', 'backward'],
    ['loyalty-tier-overview', 'forward', 'backward'],
    ['loyalty-signup', 'forward', 'backward'],
    ['loyalty-reward', 'forward', 'backward'],
    ['loyalty-history', 'forward', 'backward'],
    ['loyalty-demo', 'forward', 'backward'],
    ['loyalty-faq', 'forward', 'backward'],
  ])('%s: forward → %s, backward → %s', (route, afterForward, afterBackward) => {
    expect(nativeNavigationAction(route, 'forward')).toBe(afterForward);
    expect(nativeNavigationAction(route, 'backward')).toBe(afterBackward);
  });

  it('uses the route names of the route table', () => {
    expect(nativeNavigationAction(routes.loyalty.status.name, 'forward')).toBe('clear-history');
    expect(nativeNavigationAction(routes.loyalty.history.name, 'backward')).toBe('backward');
  });
});

function LoyaltyApp() {
  useNativeNavigation(loyaltyRouteName);
  return null;
}

describe('useNativeNavigation', () => {
  const base = routes.loyalty.base;
  let messages: [string, unknown][];

  function renderAt(path: string) {
    window.history.replaceState(null, '', `${base}${path}`);
    return render(
      <Router base={base}>
        <LoyaltyApp />
      </Router>,
    );
  }

  beforeEach(() => {
    resetAppStore();
    useAppStore.getState().setEnvironment({ isWebView: true, trackingOptOut: false });
    messages = [];
    const record = (name: string) => (json: string) => messages.push([name, JSON.parse(json)]);
    window.RoadpassAndroid = {
      clearHistory: record('clearHistory'),
      checkHistory: record('checkHistory'),
      didNavigateForward: record('didNavigateForward'),
      didNavigateBackward: record('didNavigateBackward'),
    };
  });
  afterEach(() => {
    delete window.RoadpassAndroid;
    window.history.replaceState(null, '', '/');
  });

  it('clears the native history on arriving at status', () => {
    renderAt('/status');
    expect(messages).toEqual([['clearHistory', { v: 1, type: 'clearHistory' }]]);
  });

  it('asks the host to check its history on a first page that is not one of the four', () => {
    renderAt('/history');
    expect(messages).toEqual([['checkHistory', { v: 1, type: 'checkHistory' }]]);
  });

  it('reports forward and backward moves, and clears history on the routes that say so', async () => {
    renderAt('/history');
    messages = [];

    act(() => navigate(`${base}/tier-overview`));
    act(() => navigate(`${base}/reward/city-bike`));
    act(() => navigate(`${base}/loading`));
    await act(async () => {
      window.history.back();
      await new Promise((resolve) => window.addEventListener('popstate', resolve, { once: true }));
    });

    expect(messages).toEqual([
      ['didNavigateForward', { v: 1, type: 'didNavigateForward', path: `${base}/tier-overview` }],
      ['didNavigateForward', { v: 1, type: 'didNavigateForward', path: `${base}/reward/city-bike` }],
      ['clearHistory', { v: 1, type: 'clearHistory' }],
      ['didNavigateBackward', { v: 1, type: 'didNavigateBackward', path: `${base}/reward/city-bike` }],
    ]);
  });

  it('ignores paths that are no loyalty route', () => {
    renderAt('/history');
    messages = [];
    act(() => navigate(`${base}/nowhere`));
    expect(messages).toEqual([]);
  });

  it('does nothing outside a webview', () => {
    useAppStore.getState().setEnvironment({ isWebView: false, trackingOptOut: false });
    renderAt('/status');
    act(() => navigate(`${base}/history`));
    expect(messages).toEqual([]);
  });
});

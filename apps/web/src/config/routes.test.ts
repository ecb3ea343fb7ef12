import { describe, expect, it } from 'vitest';
import {
  isPublicPath,
  loyaltyRedirectTarget,
  loyaltyRouteName,
  loyaltySignupAddress,
  matchAccountHome,
  paymentRedirectTarget,
  routes,
  safeReturnPath,
  withCarriedQuery,
} from './routes';

describe('routes', () => {
  it('builds the account home address', () => {
    expect(routes.accountHome.build('de', 'DE')).toBe('/DE/de/myaccount');
  });

  it('matches account home addresses', () => {
    expect(matchAccountHome('/DE/de/myaccount')).toEqual({ country: 'DE', lang: 'de' });
    expect(matchAccountHome('/nl/EN/myaccount/profile')).toEqual({ country: 'NL', lang: 'en' });
    expect(matchAccountHome('/DE/myaccount')).toBeNull();
  });

  it('knows the public payment page with and without trailing slash', () => {
    expect(isPublicPath('/web/payment/customer/payment-profiles/')).toBe(true);
    expect(isPublicPath('/web/payment/customer/payment-profiles')).toBe(true);
    expect(isPublicPath('/DE/de/myaccount')).toBe(false);
    expect(isPublicPath('/')).toBe(false);
  });

  it('knows the public loyalty demo and keeps every other loyalty route behind the login', () => {
    expect(isPublicPath('/customer/loyalty-ui/demo')).toBe(true);
    expect(isPublicPath('/customer/loyalty-ui/demo/')).toBe(true);
    expect(isPublicPath('/customer/loyalty-ui/')).toBe(false);
    expect(isPublicPath('/customer/loyalty-ui/status')).toBe(false);
    expect(isPublicPath('/customer/loyalty-ui/demo/more')).toBe(false);
    expect(isPublicPath('/customer/loyalty-ui/democracy')).toBe(false);
  });

  it('builds loyalty paths relative to the loyalty base, and absolute ones with href', () => {
    expect(routes.loyalty.base).toBe('/customer/loyalty-ui');
    expect(routes.loyalty.status.build()).toBe('/status');
    expect(routes.loyalty.status.href()).toBe('/customer/loyalty-ui/status');
    expect(routes.loyalty.reward.build('city-bike')).toBe('/reward/city-bike');
    expect(routes.loyalty.reward.href('city-bike')).toBe('/customer/loyalty-ui/reward/city-bike');
  });

  it('names the loyalty routes of docs/product/addresses-and-routes.md#screens-and-routes (and the FAQ)', () => {
    expect(loyaltyRouteName('/')).toBe('loyalty-entry');
    expect(loyaltyRouteName('/onboarding')).toBe('loyalty-onboarding');
    expect(loyaltyRouteName('/celebration')).toBe('loyalty-celebration');
    expect(loyaltyRouteName('/status/')).toBe('loyalty-status');
    expect(loyaltyRouteName('/tier-overview')).toBe('loyalty-tier-overview');
    expect(loyaltyRouteName('/signup')).toBe('loyalty-signup');
    expect(loyaltyRouteName('/reward/city-bike')).toBe('loyalty-reward');
    expect(loyaltyRouteName('/loading')).toBe('loyalty-loading');
    expect(loyaltyRouteName('/history')).toBe('loyalty-history');
    expect(loyaltyRouteName('/demo')).toBe('loyalty-demo');
    expect(loyaltyRouteName('/faq')).toBe('loyalty-faq');
    expect(loyaltyRouteName('/nope')).toBeNull();
    expect(loyaltyRouteName('/reward/')).toBeNull();
  });

  it('follows a stored redirect value loyalty/{target} only to a known loyalty route', () => {
    expect(loyaltyRedirectTarget('loyalty/history')).toBe('/history');
    expect(loyaltyRedirectTarget('loyalty/reward/city-bike')).toBe('/reward/city-bike');
    expect(loyaltyRedirectTarget('loyalty/status/')).toBe('/status');
    expect(loyaltyRedirectTarget('loyalty/')).toBeNull();
    expect(loyaltyRedirectTarget('loyalty/unknown')).toBeNull();
    expect(loyaltyRedirectTarget('loyalty//evil.example.com')).toBeNull();
    expect(loyaltyRedirectTarget('account/profile')).toBeNull();
    expect(loyaltyRedirectTarget(null)).toBeNull();
  });

  it('knows the loyalty signup as a route with its own error handling', () => {
    expect(loyaltySignupAddress.test('/customer/loyalty-ui/signup')).toBe(true);
    expect(loyaltySignupAddress.test('/customer/loyalty-ui/signup/')).toBe(true);
    expect(loyaltySignupAddress.test('/customer/loyalty-ui/status')).toBe(false);
  });

  it('redirects to the payment page only when the fragment carries the marker', () => {
    expect(paymentRedirectTarget('#/mobile-webview-payment')).toBe('/web/payment/customer/payment-profiles/');
    expect(paymentRedirectTarget('#foo')).toBeNull();
    expect(paymentRedirectTarget('')).toBeNull();
  });

  it('carries tracking_opt_out=true to targets without a query', () => {
    expect(withCarriedQuery('/DE/de/myaccount', '?tracking_opt_out=true')).toBe(
      '/DE/de/myaccount?tracking_opt_out=true',
    );
    expect(withCarriedQuery('/x?a=1', '?tracking_opt_out=true')).toBe('/x?a=1');
    expect(withCarriedQuery('/x', '?tracking_opt_out=false')).toBe('/x');
  });

  it('accepts only same-origin return paths', () => {
    expect(safeReturnPath('/DE/de/myaccount?x=1')).toBe('/DE/de/myaccount?x=1');
    expect(safeReturnPath('//evil.example.com')).toBe('/');
    expect(safeReturnPath('https://evil.example.com')).toBe('/');
    expect(safeReturnPath('/login/callback?code=1')).toBe('/');
    expect(safeReturnPath(undefined)).toBe('/');
  });
});

import { describe, expect, it } from 'vitest';
import {
  isPublicPath,
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

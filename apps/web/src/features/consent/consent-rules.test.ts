import { describe, expect, it } from 'vitest';
import {
  allConsent,
  consentCookie,
  consentFromQuery,
  effectiveConsent,
  needsReload,
  noConsent,
  optOutChanged,
  readConsentCookie,
} from './consent-rules';

describe('consent rules', () => {
  it('remembers the choice in a one-day cookie on path / with SameSite Lax, and reads it back', () => {
    const cookie = consentCookie({ analytics: false, errorReporting: true }, false);
    expect(cookie).toBe('roadpass_consent=a0e1; Max-Age=86400; Path=/; SameSite=Lax');
    expect(consentCookie(allConsent, true)).toMatch(/; Secure$/);
    expect(readConsentCookie('x=1; roadpass_consent=a0e1; y=2')).toEqual({
      analytics: false,
      errorReporting: true,
    });
  });

  it('has no choice without the cookie or with a value it did not write (the banner shows)', () => {
    expect(readConsentCookie('')).toBeNull();
    expect(readConsentCookie('roadpass_consent=yes')).toBeNull();
  });

  it('counts analytics and error reporting as not given with tracking opt-out, even after accept all', () => {
    expect(effectiveConsent(allConsent, true)).toEqual(noConsent);
    expect(effectiveConsent(allConsent, false)).toEqual(allConsent);
    expect(effectiveConsent(null, false)).toEqual(noConsent);
  });

  it('reloads only when analytics was granted and is withdrawn', () => {
    expect(needsReload(allConsent, noConsent)).toBe(true);
    expect(needsReload(allConsent, { analytics: false, errorReporting: true })).toBe(true);
    expect(needsReload(noConsent, allConsent)).toBe(false);
    expect(
      needsReload({ analytics: true, errorReporting: true }, { analytics: true, errorReporting: false }),
    ).toBe(false);
  });

  it('reloads when the opt-out flag changes', () => {
    expect(optOutChanged(false, true)).toBe(true);
    expect(optOutChanged(true, true)).toBe(false);
  });

  it("takes a webview host's choice from the consent query parameter", () => {
    expect(consentFromQuery('?consent=analytics,error-reporting')).toEqual(allConsent);
    expect(consentFromQuery('?consent=none')).toEqual(noConsent);
    expect(consentFromQuery('?consent=error-reporting')).toEqual({ analytics: false, errorReporting: true });
    expect(consentFromQuery('?x=1')).toBeNull();
  });
});

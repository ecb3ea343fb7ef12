/**
 * Consent rules of docs/product/states.md#states-and-transitions, docs/product/constants.md#business-constants, small enough for the first load: what the customer chose (a cookie),
 * what counts (tracking opt-out overrides), and when the page must reload. No third-party code here.
 */

/** The optional categories; essential needs no consent. */
export interface ConsentChoice {
  /** The tag manager. */
  analytics: boolean;
  /** The error reporting SDK and the feedback widget. */
  errorReporting: boolean;
}

export const CONSENT_COOKIE = 'roadpass_consent';
/** docs/product/constants.md#business-constants: cookies live one day by default. */
export const CONSENT_COOKIE_MAX_AGE_SECONDS = 86_400;

export const noConsent: ConsentChoice = { analytics: false, errorReporting: false };
export const allConsent: ConsentChoice = { analytics: true, errorReporting: true };

/** The stored choice, or null when the customer has not chosen yet (then the banner shows). */
export function readConsentCookie(cookieHeader: string): ConsentChoice | null {
  for (const part of cookieHeader.split(';')) {
    const [name, value] = part.trim().split('=');
    if (name !== CONSENT_COOKIE || value === undefined) continue;
    const match = /^a([01])e([01])$/.exec(value);
    if (!match) return null;
    return { analytics: match[1] === '1', errorReporting: match[2] === '1' };
  }
  return null;
}

/** The Set-Cookie text for document.cookie: one day, path /, SameSite Lax (Secure over https). */
export function consentCookie(choice: ConsentChoice, secure: boolean): string {
  const value = `a${choice.analytics ? 1 : 0}e${choice.errorReporting ? 1 : 0}`;
  return `${CONSENT_COOKIE}=${value}; Max-Age=${CONSENT_COOKIE_MAX_AGE_SECONDS}; Path=/; SameSite=Lax${secure ? '; Secure' : ''}`;
}

/** What counts: with tracking_opt_out=true analytics and error reporting count as not given. */
export function effectiveConsent(choice: ConsentChoice | null, trackingOptOut: boolean): ConsentChoice {
  if (!choice || trackingOptOut) return noConsent;
  return choice;
}

/**
 * After accept all, deny all or save: a tag manager cannot be unloaded, so analytics granted before
 * and withdrawn now reloads the page; everything else is applied in place.
 */
export function needsReload(before: ConsentChoice, after: ConsentChoice): boolean {
  return before.analytics && !after.analytics;
}

/** docs/product/states.md#states-and-transitions: changing the tracking opt-out flag reloads the page. */
export function optOutChanged(previous: boolean, current: boolean): boolean {
  return previous !== current;
}

/**
 * Webview hosts (docs/native-bridge.md) pass the host's choice with the `consent` query parameter:
 * `consent=analytics,error-reporting`, `consent=none`; null when the parameter is absent.
 */
export function consentFromQuery(search: string): ConsentChoice | null {
  const raw = new URLSearchParams(search).get('consent');
  if (raw === null) return null;
  const granted = new Set(raw.split(',').map((s) => s.trim()));
  return { analytics: granted.has('analytics'), errorReporting: granted.has('error-reporting') };
}

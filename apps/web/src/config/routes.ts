import { appPaths } from '@roadpass/contracts';

/**
 * Every route of the web app, written once: patterns for the router and builders for links and
 * redirects. Nobody writes a route string by hand anywhere else.
 */
export const routes = {
  root: { pattern: '/', build: () => '/' },
  authCallback: { pattern: appPaths.authCallback, build: () => appPaths.authCallback },
  accountHome: {
    pattern: '/:country/:lang/myaccount',
    build: (country: string, lang: string) => appPaths.accountHome(country, lang),
  },
  paymentProfiles: {
    // Matched with and without the trailing slash the webview redirect uses.
    pattern: /^\/web\/payment\/customer\/payment-profiles\/?$/,
    build: () => appPaths.paymentProfilesRedirect,
  },
  /** The loyalty app (a later issue) is mounted here as a nested, lazily loaded router. */
  loyalty: { base: appPaths.loyaltyBase },
} as const;

/** Routes that need no login (spec §6). Everything else requires a signed-in customer. */
export function isPublicPath(pathname: string): boolean {
  return routes.paymentProfiles.pattern.test(pathname);
}

export function isAuthCallbackPath(pathname: string): boolean {
  return pathname === routes.authCallback.pattern;
}

/** The country and language of an account-home address, or null for any other address. */
export function matchAccountHome(pathname: string): { country: string; lang: string } | null {
  const match = /^\/([A-Za-z]{2})\/([A-Za-z]{2})\/myaccount(?:\/.*)?$/.exec(pathname);
  return match ? { country: match[1]!.toUpperCase(), lang: match[2]!.toLowerCase() } : null;
}

/** Marker in the address fragment that sends the webview to the payment profiles page (spec §2). */
export const PAYMENT_MARKER = 'mobile-webview-payment';

export function paymentRedirectTarget(hash: string): string | null {
  return hash.includes(PAYMENT_MARKER) ? routes.paymentProfiles.build() : null;
}

/** Spec §2: tracking_opt_out=true travels to the next route when the target has no query of its own. */
export function withCarriedQuery(target: string, currentSearch: string): string {
  if (target.includes('?')) return target;
  const optOut = new URLSearchParams(currentSearch).get('tracking_opt_out') === 'true';
  return optOut ? `${target}?tracking_opt_out=true` : target;
}

/** A same-origin path to go back to after sign-in; anything else becomes '/'. */
export function safeReturnPath(value: unknown): string {
  if (typeof value !== 'string' || !value.startsWith('/') || value.startsWith('//')) return '/';
  if (value.startsWith(routes.authCallback.pattern)) return '/';
  return value;
}

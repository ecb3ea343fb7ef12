import { accountHomeAddress, appPaths, isLoyaltyAddress, signsInFirst } from '@roadpass/contracts';

export { isLoyaltyAddress };

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
  /** The account area's sub-pages (issue 8): each below the account home, with a back link to it. */
  account: {
    profile: accountPage('profile'),
    password: accountPage('password'),
    mobile: accountPage('mobile'),
    privacy: accountPage('privacy'),
    payment: accountPage('payment'),
    /** Active sessions and signing them out (docs/product/security.md#sessions). */
    security: accountPage('security'),
    /** The security activity (docs/product/security.md#security-activity), linked from the security page. */
    securityActivity: accountPage('security/activity'),
    /** docs/product/data-rights.md#close-my-account */
    close: accountPage('close'),
    /** docs/product/security.md#passkeys: below the security page (linked from the security page and the account menu). */
    passkeys: accountPage('security/passkeys'),
  },
  /** No login: the newsletter unsubscribe link of an e-mail. */
  newsletterUnsubscribe: {
    pattern: '/newsletter/unsubscribe/:token',
    build: (token: string) => appPaths.newsletterUnsubscribe(token),
  },
  /** No login: the link sent to a new e-mail address, which confirms it. */
  emailConfirm: { pattern: '/email/confirm/:token', build: (token: string) => appPaths.emailConfirm(token) },
  paymentProfiles: {
    // Matched with and without the trailing slash the webview redirect uses.
    pattern: /^\/web\/payment\/customer\/payment-profiles\/?$/,
    build: () => appPaths.paymentProfilesRedirect,
  },
  /**
   * The loyalty app (docs/product/addresses-and-routes.md#screens-and-routes), mounted under `base` as a nested router: patterns and builders are
   * relative to the base; `href` gives the absolute address for use outside the loyalty router.
   */
  loyalty: {
    base: appPaths.loyaltyBase,
    entry: loyaltyRoute('loyalty-entry', '/'),
    onboarding: loyaltyRoute('loyalty-onboarding', '/onboarding'),
    celebration: loyaltyRoute('loyalty-celebration', '/celebration'),
    status: loyaltyRoute('loyalty-status', '/status'),
    tierOverview: loyaltyRoute('loyalty-tier-overview', '/tier-overview'),
    signup: loyaltyRoute('loyalty-signup', '/signup'),
    reward: {
      name: 'loyalty-reward',
      pattern: '/reward/:id',
      build: (slug: string) => `/reward/${encodeURIComponent(slug)}`,
      href: (slug: string) => `${appPaths.loyaltyBase}/reward/${encodeURIComponent(slug)}`,
    },
    loading: loyaltyRoute('loyalty-loading', '/loading'),
    history: loyaltyRoute('loyalty-history', '/history'),
    demo: loyaltyRoute('loyalty-demo', '/demo'),
    /** Not in the spec's table: the programme FAQ asked for by the loyalty issue. */
    faq: loyaltyRoute('loyalty-faq', '/faq'),
  },
} as const;

function accountPage<Page extends string>(page: Page) {
  return {
    page,
    pattern: `/:country/:lang/myaccount/${page}`,
    build: (country: string, lang: string) => `${appPaths.accountHome(country, lang)}/${page}`,
  } as const;
}

export type AccountPage = keyof typeof routes.account;

function loyaltyRoute<Name extends string, Path extends string>(name: Name, path: Path) {
  return {
    name,
    pattern: path,
    build: () => path,
    href: () => `${appPaths.loyaltyBase}${path}`,
  } as const;
}

export type LoyaltyRouteName = (typeof routes.loyalty)[Exclude<keyof typeof routes.loyalty, 'base'>]['name'];

/** The loyalty app's fixed routes, in the order of docs/product/addresses-and-routes.md#screens-and-routes's table. */
const fixedLoyaltyRoutes = [
  routes.loyalty.entry,
  routes.loyalty.onboarding,
  routes.loyalty.celebration,
  routes.loyalty.status,
  routes.loyalty.tierOverview,
  routes.loyalty.signup,
  routes.loyalty.loading,
  routes.loyalty.history,
  routes.loyalty.demo,
  routes.loyalty.faq,
];

const rewardPath = /^\/reward\/([a-z0-9][a-z0-9-]{0,63})\/?$/;

/**
 * The loyalty route name of an absolute path: undefined outside the loyalty app, null for a loyalty
 * path that is no route (loyaltyRouteName).
 */
export function loyaltyRouteOf(pathname: string): LoyaltyRouteName | null | undefined {
  return isLoyaltyAddress(pathname)
    ? loyaltyRouteName(pathname.slice(appPaths.loyaltyBase.length) || '/')
    : undefined;
}

/**
 * The name of a loyalty route (docs/product/addresses-and-routes.md#screens-and-routes) for a path relative to the loyalty base, e.g. '/status' →
 * 'loyalty-status'; null for anything else (those paths redirect to the loyalty root).
 */
export function loyaltyRouteName(relativePath: string): LoyaltyRouteName | null {
  const path = relativePath.length > 1 ? relativePath.replace(/\/$/, '') : relativePath;
  if (rewardPath.test(path)) return routes.loyalty.reward.name;
  return fixedLoyaltyRoutes.find((route) => route.pattern === path)?.name ?? null;
}

/**
 * docs/product/addresses-and-routes.md#screens-and-routes: the entry route follows a stored redirect value `loyalty/{target}`. Only a known loyalty
 * route other than the entry itself is a target; the result is relative to the loyalty base.
 */
export function loyaltyRedirectTarget(storedValue: string | null): string | null {
  const match = storedValue ? /^loyalty\/([^?#]+)$/.exec(storedValue.trim()) : null;
  if (!match) return null;
  const target = `/${match[1]!.replace(/\/$/, '')}`;
  const name = loyaltyRouteName(target);
  return name && name !== routes.loyalty.entry.name ? target : null;
}

/** An absolute loyalty address (with or without a trailing slash) as a pattern, e.g. for '/signup'. */
function absoluteLoyaltyPattern(relativePath: string): RegExp {
  const escaped = `${appPaths.loyaltyBase}${relativePath}`.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
  return new RegExp(`^${escaped}/?$`);
}

/** The loyalty signup handles its own errors (docs/product/addresses-and-routes.md#screens-and-routes): navigating to it keeps the error flags. */
export const loyaltySignupAddress = absoluteLoyaltyPattern(routes.loyalty.signup.pattern);

/**
 * Routes that need no login (docs/product/identity-provider.md#roles-and-permissions): the payment-profiles target, the loyalty demo, and every
 * address the app does not have (its not-found page). Everything else requires a signed-in customer
 * (`signsInFirst`, shared with the server, which preloads the sign-in client there: decision 0072).
 */
export function isPublicPath(pathname: string): boolean {
  return !signsInFirst(pathname);
}

export function isAuthCallbackPath(pathname: string): boolean {
  return pathname === routes.authCallback.pattern;
}

/** The country and language of an account-home address, or null for any other address. */
export function matchAccountHome(pathname: string): { country: string; lang: string } | null {
  const match = accountHomeAddress.exec(pathname);
  return match ? { country: match[1]!.toUpperCase(), lang: match[2]!.toLowerCase() } : null;
}

/** The account sub-page (routes.account) an address opens, or null. */
export function matchAccountPage(pathname: string): AccountPage | null {
  const match = /^\/[A-Za-z]{2}\/[A-Za-z]{2}\/myaccount\/([a-z]+(?:\/[a-z]+)?)\/?$/.exec(pathname);
  const page = match?.[1];
  const found = Object.entries(routes.account).find(([, route]) => route.page === page);
  return found ? (found[0] as AccountPage) : null;
}

/** Marker in the address fragment that sends the webview to the payment profiles page (docs/product/addresses-and-routes.md#screens-and-routes). */
export const PAYMENT_MARKER = 'mobile-webview-payment';

export function paymentRedirectTarget(hash: string): string | null {
  return hash.includes(PAYMENT_MARKER) ? routes.paymentProfiles.build() : null;
}

/** docs/product/addresses-and-routes.md#screens-and-routes: tracking_opt_out=true travels to the next route when the target has no query of its own. */
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

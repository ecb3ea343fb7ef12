/** The calls of spec §7, written once. Builders take path parameters; nobody writes a path twice. */
export const apiPaths = {
  loginStatus: '/api/customer/cuda/customer/v2/login/own/status',
  logout: '/api/customer/cuda/customer/logout',
  personalData: '/api/customer/cuda/customer/personaldata/own',
  contentCollection: (locale: string, collection: string) =>
    `/api/core-web/content/contentCollection/${encodeURIComponent(locale)}/${encodeURIComponent(collection)}`,
} as const;

/** Where the app and the identity provider live (product decisions §2). */
export const appPaths = {
  loyaltyBase: '/customer/loyalty-ui',
  accountHome: (country: string, lang: string) => `/${country.toUpperCase()}/${lang.toLowerCase()}/myaccount`,
  authCallback: '/login/callback',
  paymentProfilesRedirect: '/web/payment/customer/payment-profiles/',
  newsletterUnsubscribe: (token: string) => `/newsletter/unsubscribe/${encodeURIComponent(token)}`,
  runtimeConfig: '/config.json',
  identityProviderBase: '/auth',
  realm: 'customer',
} as const;

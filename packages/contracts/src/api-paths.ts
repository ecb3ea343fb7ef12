/** The calls of spec §7, written once. Builders take path parameters; nobody writes a path twice. */
export const apiPaths = {
  loginStatus: '/api/customer/cuda/customer/v2/login/own/status',
  logout: '/api/customer/cuda/customer/logout',
  personalData: '/api/customer/cuda/customer/personaldata/own',
  contentCollection: (locale: string, collection: string) =>
    `/api/core-web/content/contentCollection/${encodeURIComponent(locale)}/${encodeURIComponent(collection)}`,
  loyaltyTiers: (locale: string) => `/api/core-web/content/loyalty/tier/${encodeURIComponent(locale)}`,
  faq: (slug: string) => `/api/core-web/content/faq/${encodeURIComponent(slug)}`,

  consentSet: (legalEntityId: number, set: string) =>
    `/api/customer/consents/v1/legal-entities/${legalEntityId}/consents/${encodeURIComponent(set)}`,
  processConsents: (legalEntityId: number, process: string) =>
    `/api/customer/consents/v1/legal-entities/${legalEntityId}/processes/${encodeURIComponent(process)}/consents`,
  customerConsents: (uuid: string) =>
    `/api/customer/consents/v1/customers/${encodeURIComponent(uuid)}/consents`,
  customerConsent: (uuid: string, slug: string) =>
    `/api/customer/consents/v1/customers/${encodeURIComponent(uuid)}/consents/${encodeURIComponent(slug)}`,

  loyaltyTierDetails: (uuid: string) => `/api/customer/loyalty-service/customer/${encodeURIComponent(uuid)}`,
  loyaltyHistory: (uuid: string) =>
    `/api/customer/loyalty-service/customer/${encodeURIComponent(uuid)}/history`,
  loyaltyPartnerCode: (uuid: string, slug: string) =>
    `/api/customer/loyalty-service/customer/${encodeURIComponent(uuid)}/partner-code/${encodeURIComponent(slug)}`,

  /** The OpenAPI document of the API. */
  openApiDocument: '/api/openapi.json',

  /** Internal: points events from the rental system (service client token with the loyalty:events scope). */
  internalLoyaltyEvents: '/api/internal/loyalty/events',
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

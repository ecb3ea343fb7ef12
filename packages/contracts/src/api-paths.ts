/** The calls of docs/product/api.md#calls, written once. Builders take path parameters; nobody writes a path twice. */
export const apiPaths = {
  loginStatus: '/api/customer/cuda/customer/v2/login/own/status',
  logout: '/api/customer/cuda/customer/logout',
  personalData: '/api/customer/cuda/customer/personaldata/own',
  personalDataMeta: (country: string, province?: string) =>
    `/api/customer/cuda/customer/personaldata/own/meta/${encodeURIComponent(country)}` +
    (province === undefined ? '' : `/${encodeURIComponent(province)}`),
  paymentProfiles: '/api/customer/cuda/customer/v2/responsive/paymentprofiles/all',
  password: '/api/customer/cuda/customer/password/own',
  /** Not in the original spec: the customer's active sessions (GET), ending all others (DELETE). */
  sessions: '/api/customer/cuda/customer/sessions/own',
  /** Ends one of the customer's sessions. */
  session: (sessionId: string) => `/api/customer/cuda/customer/sessions/own/${encodeURIComponent(sessionId)}`,
  /** Not in the original spec: the customer's security activity, paged, newest first. */
  securityActivity: '/api/customer/cuda/customer/security-activity/own',
  mobile: '/api/customer/cuda/customer/v2/mobile/own',
  /** The customer's passkeys (docs/product/security.md#passkeys). */
  passkeys: '/api/customer/cuda/customer/passkeys/own',
  passkeyRegistrationOptions: '/api/customer/cuda/customer/passkeys/own/registration-options',
  passkey: (id: string) => `/api/customer/cuda/customer/passkeys/own/${encodeURIComponent(id)}`,
  newsletterLog: '/api/customer/cuda/customer/newsletter/own/log',
  newsletter: (id: string) => `/api/customer/cuda/customer/newsletter/own/${encodeURIComponent(id)}`,
  newsletterAll: (id: string) => `/api/customer/cuda/customer/newsletter/all/${encodeURIComponent(id)}`,
  /** Not in docs/product/api.md#calls: confirms an e-mail change with the token of the link sent to the new address (no login). */
  emailConfirmation: '/api/customer/cuda/customer/email-confirmation',
  /** No login: the e-mail an unsubscribe token belongs to (the spec's path, with its double v1). */
  unsubscribeLookup: (token: string) => `/api/customer/consents/v1/v1/customers/${encodeURIComponent(token)}`,
  /** No login: unsubscribes the newsletter of the token. */
  unsubscribe: (token: string) => `/api/customer/consents/v1/customers/consents/${encodeURIComponent(token)}`,
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
  loyaltyExpiryForecast: (uuid: string) =>
    `/api/customer/loyalty-service/customer/${encodeURIComponent(uuid)}/expiry-forecast`,
  pointsReminders: (uuid: string) =>
    `/api/customer/loyalty-service/customer/${encodeURIComponent(uuid)}/points-reminders`,

  /**
   * No login, no anti-forgery header: the error reporting SDK's tunnel (Sentry envelopes). It only
   * stores reports and never reads or changes customer data (docs/decisions/0029-web-consent-manager.md).
   */
  errorReportEnvelope: '/api/error-reports/envelope',

  /** The OpenAPI document of the API. */
  openApiDocument: '/api/openapi.json',
  /** The OpenAPI document as a browsable reference page (docs/product/api.md#reference-page). */
  apiReference: '/api/docs',

  /** Internal: points events from the rental system (service client token with the loyalty:events scope). */
  internalLoyaltyEvents: '/api/internal/loyalty/events',

  /** docs/product/data-rights.md#download-my-data: the customer's newest export (GET), a new one (POST). */
  dataExport: '/api/customer/cuda/customer/data-export/own',
  /** The ZIP of the customer's ready export (bearer token; the app fetches it as a blob). */
  dataExportFile: '/api/customer/cuda/customer/data-export/own/file',
  /** docs/product/data-rights.md#close-my-account: blockers and the scheduled deletion (GET), ask (POST), keep (DELETE). */
  accountDeletion: '/api/customer/cuda/customer/deletion/own',
  /** Internal: the rental system reports what stops a customer's deletion, per legal entity. */
  internalDeletionBlockers: (customerId: string) =>
    `/api/internal/account/deletion-blockers/${encodeURIComponent(customerId)}`,
  /** Internal: erased customers since a cursor (the rental system erases them too). */
  internalErasures: '/api/internal/account/erasures',
} as const;

/** Where the app and the identity provider live (docs/product/addresses-and-routes.md#addresses). */
export const appPaths = {
  loyaltyBase: '/customer/loyalty-ui',
  /** The loyalty programme's demo: the one loyalty address that needs no sign-in. */
  loyaltyDemo: '/customer/loyalty-ui/demo',
  accountHome: (country: string, lang: string) => `/${country.toUpperCase()}/${lang.toLowerCase()}/myaccount`,
  authCallback: '/login/callback',
  paymentProfilesRedirect: '/web/payment/customer/payment-profiles/',
  newsletterUnsubscribe: (token: string) => `/newsletter/unsubscribe/${encodeURIComponent(token)}`,
  /** The page the e-mail-change link opens; it confirms the new address. */
  emailConfirm: (token: string) => `/email/confirm/${encodeURIComponent(token)}`,
  /** Outside production only: what the server "sent" by SMS and e-mail. */
  devOutbox: '/dev/outbox',
  /** Outside production only: a page that plays the iOS or Android app around the app in webview mode. */
  devWebviewHost: '/dev/webview-host',
  /** Outside production only: the error reports and feedback the tunnel stored (server-rendered). */
  devErrorReports: '/dev/error-reports',
  /** Outside production only: a stand-in tag manager script (TAG_MANAGER_URL points here in tests). */
  devTagManagerScript: '/dev/tag-manager.js',
  runtimeConfig: '/config.json',
  identityProviderBase: '/auth',
  realm: 'customer',
} as const;

/** Whether an absolute path is the loyalty app's: its base or an address under it. */
export function isLoyaltyAddress(pathname: string): boolean {
  return pathname === appPaths.loyaltyBase || pathname.startsWith(`${appPaths.loyaltyBase}/`);
}

/** An account-home address, `/{country}/{lang}/myaccount` or a page under it (groups: country, language). */
export const accountHomeAddress = /^\/([A-Za-z]{2})\/([A-Za-z]{2})\/myaccount(?:\/.*)?$/;

/**
 * Whether the app's page at this path signs the visitor in before it shows
 * (docs/product/identity-provider.md#roles-and-permissions): the start page, the account area, the
 * loyalty app but its demo, and the sign-in's return. Every other address needs no sign-in: the
 * payment-profiles target, the e-mail links, the loyalty demo, any address the app does not have.
 * The web app's start-up asks it (isPublicPath); the server preloads the sign-in client on these
 * pages only (decision 0072).
 */
export function signsInFirst(pathname: string): boolean {
  if (isLoyaltyAddress(pathname)) return pathname.replace(/\/$/, '') !== appPaths.loyaltyDemo;
  return pathname === '/' || pathname === appPaths.authCallback || accountHomeAddress.test(pathname);
}

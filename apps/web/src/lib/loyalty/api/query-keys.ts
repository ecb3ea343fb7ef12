/**
 * Every loyalty query key, written once: TanStack Query is the one cache of the loyalty app's server
 * data (decision 0023). Keys nest under `loyalty`, so one call can drop them all.
 */
export const loyaltyKeys = {
  all: ['loyalty'] as const,
  tiers: (locale: string, legalEntityIso: string) =>
    [...loyaltyKeys.all, 'tiers', locale, legalEntityIso.toUpperCase()] as const,
  tierDetails: (uuid: string) => [...loyaltyKeys.all, 'tier-details', uuid] as const,
  consents: (uuid: string) => [...loyaltyKeys.all, 'consents', uuid] as const,
  processConsents: (legalEntityId: number, process: string, language: string) =>
    [...loyaltyKeys.all, 'process-consents', legalEntityId, process, language] as const,
  faq: (locale: string) => [...loyaltyKeys.all, 'faq', locale] as const,
  history: (uuid: string) => [...loyaltyKeys.all, 'history', uuid] as const,
  partnerCode: (uuid: string, slug: string) => [...loyaltyKeys.all, 'partner-code', uuid, slug] as const,
  expiryForecast: (uuid: string) => [...loyaltyKeys.all, 'expiry-forecast', uuid] as const,
  pointsReminders: (uuid: string) => [...loyaltyKeys.all, 'points-reminders', uuid] as const,
};

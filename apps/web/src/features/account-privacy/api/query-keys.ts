/** The privacy page's query keys, written once. */
export const privacyKeys = {
  all: ['account', 'privacy'] as const,
  newsletter: () => [...privacyKeys.all, 'newsletter'] as const,
  consentSet: (legalEntityId: number, set: string, language: string) =>
    [...privacyKeys.all, 'consent-set', legalEntityId, set, language] as const,
  consentUpdate: (uuid: string) => [...privacyKeys.all, 'consent-update', uuid] as const,
};

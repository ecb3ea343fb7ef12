/** The profile page's query keys, written once. */
export const profileKeys = {
  all: ['account', 'profile'] as const,
  personalData: () => [...profileKeys.all, 'personal-data'] as const,
  /** The rules of an address in a country (and province); null for the country alone. */
  addressRules: (country: string, province: string | null) =>
    [...profileKeys.all, 'address-rules', country, province] as const,
  provinceNames: () => [...profileKeys.all, 'province-names'] as const,
};

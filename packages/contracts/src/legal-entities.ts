export const countryCodes = ['NL', 'AT', 'FR', 'DE', 'IT', 'ES', 'HU', 'DK'] as const;
export type CountryCode = (typeof countryCodes)[number];

/** A row of the legal entity table (docs/product/data.md#entities-and-fields): reference data, not a request payload. */
export interface LegalEntity {
  legalEntityId: number;
  isoCountry: CountryCode;
  languages: string[];
  isActive: boolean;
  isRegistrationActive: boolean;
  isAddressEditingDisabled: boolean;
}

/** The legal entity table of docs/product/data.md#entities-and-fields. All are active with registration active. */
export const legalEntities: readonly LegalEntity[] = (
  [
    { legalEntityId: 1, isoCountry: 'NL', languages: ['nl', 'en'] },
    { legalEntityId: 2, isoCountry: 'AT', languages: ['de', 'en'] },
    { legalEntityId: 3, isoCountry: 'FR', languages: ['fr', 'en'] },
    { legalEntityId: 10, isoCountry: 'DE', languages: ['de', 'en'] },
    { legalEntityId: 20, isoCountry: 'IT', languages: ['it', 'en'] },
    { legalEntityId: 23, isoCountry: 'ES', languages: ['es', 'en'] },
    { legalEntityId: 32, isoCountry: 'HU', languages: ['hu', 'en'], isAddressEditingDisabled: true },
    { legalEntityId: 37, isoCountry: 'DK', languages: ['da', 'en'] },
  ] as const
).map((e) => ({
  isActive: true,
  isRegistrationActive: true,
  isAddressEditingDisabled: false,
  ...e,
  languages: [...e.languages],
}));

export const DEFAULT_LEGAL_ENTITY_ID = 10;

export function legalEntityById(id: number): LegalEntity | undefined {
  return legalEntities.find((e) => e.legalEntityId === id);
}

export function legalEntityByCountry(iso: string): LegalEntity | undefined {
  return legalEntities.find((e) => e.isoCountry === iso.toUpperCase());
}

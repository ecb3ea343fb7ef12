import type { InputHTMLAttributes } from 'react';
import type { ProfileField } from './profile-values';

/** How a field is edited: a text input (of a type), one of the selects, a checkbox, or the mobile number. */
export type FieldKind = 'text' | 'salutation' | 'country' | 'province' | 'checkbox' | 'mobile';

export interface FieldSpec {
  field: ProfileField;
  kind: FieldKind;
  /** Takes the whole row on wide screens. */
  wide?: boolean;
  /** A hint under the label (translation key). */
  hint?: string;
  input?: Pick<
    InputHTMLAttributes<HTMLInputElement>,
    'type' | 'autoComplete' | 'inputMode' | 'autoCapitalize' | 'spellCheck'
  >;
}

export interface SectionSpec {
  id: 'person' | 'contact' | 'address';
  fields: FieldSpec[];
}

const text = (
  field: ProfileField,
  input: FieldSpec['input'] = {},
  extra: Partial<FieldSpec> = {},
): FieldSpec => ({
  field,
  kind: 'text',
  input,
  ...extra,
});
const code = { autoCapitalize: 'characters', spellCheck: false } as const;

/**
 * Every field of the profile (docs/product/data.md#entities-and-fields PersonalDataRTO) in the order a customer fills them in, with the
 * autocomplete purpose of each (WCAG 1.3.5). The language is not here: the account home switches it.
 */
export const sections: SectionSpec[] = [
  {
    id: 'person',
    fields: [
      { field: 'salutation', kind: 'salutation' },
      text('firstName', { autoComplete: 'given-name' }),
      text('middleName', { autoComplete: 'additional-name' }),
      text('lastName', { autoComplete: 'family-name' }),
      text('birthDate', { type: 'date', autoComplete: 'bday' }),
      text('birthPlace'),
      text('fiscalCode', code, { hint: 'profile-fiscalCode-hint' }),
      text('passportId', code),
      { field: 'student', kind: 'checkbox', wide: true },
      { field: 'fullTimeStudent', kind: 'checkbox', wide: true },
    ],
  },
  {
    id: 'contact',
    fields: [
      text('email', { type: 'email', autoComplete: 'email', spellCheck: false }, { wide: true }),
      text('phone', { type: 'tel', autoComplete: 'tel', inputMode: 'tel' }, { hint: 'profile-phone-hint' }),
      { field: 'mobilePhone', kind: 'mobile' },
    ],
  },
  {
    id: 'address',
    fields: [
      { field: 'addressCountryIsoCode', kind: 'country' },
      { field: 'addressProvinceIsoCode', kind: 'province' },
      text('addressStreet', { autoComplete: 'address-line1' }, { wide: true }),
      text('addressAdditionalStreet', { autoComplete: 'address-line2' }, { wide: true }),
      text('addressZipCode', { autoComplete: 'postal-code', ...code }),
      text('addressCity', { autoComplete: 'address-level2' }),
    ],
  },
];

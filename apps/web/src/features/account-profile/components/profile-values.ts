import {
  addressFields,
  compileRules,
  listedValues,
  upperCaseFields,
  type CompiledRules,
  phoneNumberInput,
  type MetaDataList,
  type PersonalDataRTO,
  type RuleViolation,
} from '@roadpass/contracts';

/** The form's values: PersonalDataRTO with text for every absent value (inputs hold text). */
export type ProfileValues = {
  [Field in keyof PersonalDataRTO]: PersonalDataRTO[Field] extends boolean ? boolean : string;
};
export type ProfileField = keyof ProfileValues;

// The address fields' rules come from the address country, the others from the customer's legal
// entity (the list is the contracts' own, shared with the server).

const isAddressField = (attribute: string) => (addressFields as readonly string[]).includes(attribute);

/**
 * The part of the customer's rules (GET personaldata/own) that does not depend on the address: their
 * legal entity's personal rules and the legal entity table's (language, a read-only address for HU).
 */
export function customerPart(meta: MetaDataList): MetaDataList {
  return meta.filter((entry) => !isAddressField(entry.attribute) || entry.validator === 'readonly');
}

/**
 * The address rules in a country (province) answer, without that country's read-only flags: those
 * belong to its legal entity, and the customer's own legal entity decides what they may change.
 */
export function addressPart(meta: MetaDataList): MetaDataList {
  return meta.filter((entry) => isAddressField(entry.attribute) && entry.validator !== 'readonly');
}

/**
 * The rules the server checks a profile with (`rules.customerMeta(entity, country, province)`): the
 * customer's legal entity's rules plus those of the address country and province.
 */
export function profileRules(customerMeta: MetaDataList, addressMeta: MetaDataList): CompiledRules {
  return compileRules([...customerPart(customerMeta), ...addressPart(addressMeta)]);
}

/** The provinces an address in the country of these rules is in (Spain), by code; else none. */
export function provincesOf(meta: MetaDataList): string[] {
  return listedValues(compileRules(addressPart(meta)).addressProvinceIsoCode);
}

/** A rule's parameter for its message: {{min}}, {{max}} and {{parameter}} of the rules-… texts. */
export function messageParameters(rules: CompiledRules, violation: Pick<RuleViolation, 'field' | 'rule'>) {
  const field = rules[violation.field];
  const parameter =
    field?.custom.find((custom) => custom.validator === violation.rule)?.parameter ??
    field?.patterns.find((pattern) => pattern.validator === violation.rule)?.parameter ??
    '';
  return { min: field?.minLength ?? 0, max: field?.maxLength ?? 0, parameter };
}

const requiredText = ['email', 'firstName', 'lastName', 'language', 'salutation'] as const;
const upperCase = new Set<ProfileField>(upperCaseFields);

/** The profile as the form edits it; the phone number grouped as people read it (`formatPhone`). */
export function toValues(
  profile: PersonalDataRTO,
  formatPhone: (e164: string) => string = (e164) => e164,
): ProfileValues {
  const values = {} as Record<string, unknown>;
  for (const [field, value] of Object.entries(profile)) values[field] = value ?? '';
  if (profile.phone) values.phone = formatPhone(profile.phone);
  return values as ProfileValues;
}

/**
 * The profile to check and send: text trimmed, codes in capitals, a phone number in E.164 however
 * people type it (the mobile page takes the same spellings), and an empty optional value absent (null), as the server stores it.
 */
export function toProfile(values: ProfileValues): PersonalDataRTO {
  const profile = {} as Record<string, unknown>;
  for (const [field, value] of Object.entries(values) as [ProfileField, string | boolean][]) {
    if (typeof value !== 'string') {
      profile[field] = value;
      continue;
    }
    let text = value.trim();
    if (upperCase.has(field)) text = text.toUpperCase();
    if (field === 'phone') text = phoneNumberInput(text);
    profile[field] = text === '' && !(requiredText as readonly string[]).includes(field) ? null : text;
  }
  return profile as PersonalDataRTO;
}

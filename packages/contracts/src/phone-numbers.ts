// Phone numbers as people write them and as we show them. Stored and checked in E.164 (`+` and
// digits); typed with the spaces, brackets, dots, slashes and dashes people put in, and shown in the
// number's own country's grouping. Plain values only: the browser bundles this module.
import { parsePhoneNumberFromString } from 'libphonenumber-js/core';
import { phoneMetadata } from './phone-metadata.js';

/** What people put between the digits of a phone number (any Unicode space, brackets, . / -). */
const SEPARATORS = /[\s()./\u2010-\u2015-]/gu;

/**
 * A phone number as typed, in the spelling the rules check and the server stores: separators removed,
 * the international prefix 00 written as `+` ("+39 312 345 6789", "0039 312-345-6789" →
 * "+393123456789"). Anything else is left as it is, for the rules to refuse.
 */
export function phoneNumberInput(typed: string): string {
  const compact = typed.trim().replace(SEPARATORS, '');
  return compact.startsWith('00') ? `+${compact.slice(2)}` : compact;
}

/**
 * A stored E.164 number in its country's grouping, with the country code ("+393123456789" →
 * "+39 312 345 6789", "+4915123456789" → "+49 1512 3456789"). A number of a country we have no
 * metadata for, or anything that is not E.164, is shown as it is.
 */
export function formatPhoneNumber(e164: string): string {
  const phone = parsePhoneNumberFromString(e164, phoneMetadata);
  return phone && phone.number === e164 ? phone.formatInternational() : e164;
}

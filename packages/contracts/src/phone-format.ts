// Phone numbers as we show them: in the number's own country's grouping. Plain values only: the
// browser bundles this module (in a chunk of its own, apps/web/src/lib/phone).
import { parsePhoneNumberFromString } from 'libphonenumber-js/core';
import { phoneMetadata } from './phone-metadata.js';

/**
 * A stored E.164 number in its country's grouping, with the country code ("+393123456789" →
 * "+39 312 345 6789", "+4915123456789" → "+49 1512 3456789"). A number of a country we have no
 * metadata for, or anything that is not E.164, is shown as it is.
 */
export function formatPhoneNumber(e164: string): string {
  const phone = parsePhoneNumberFromString(e164, phoneMetadata);
  return phone && phone.number === e164 ? phone.formatInternational() : e164;
}

// Phone numbers as people type them. Stored and checked in E.164 (`+` and digits); typed with the
// spaces, brackets, dots, slashes and dashes people put in. No libphonenumber here: the forms import
// this at once, the formatter (phone-format.ts) comes in a chunk of its own.

/** What people put between the digits of a phone number (any Unicode space, brackets, . / and dashes). */
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

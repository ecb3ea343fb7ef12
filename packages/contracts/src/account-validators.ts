// The validators of our own that served rules name (docs/product/account-rules.md#validation-rules: "any other validator is kept under its
// own name"). Passed to checkValues as `customValidators` by the server AND the app, so both run the
// very same checks. Plain values only: the browser bundles this module.
import { parsePhoneNumberFromString } from 'libphonenumber-js/core';
import { phoneMetadata } from './phone-metadata.js';
import type { CustomValidator } from './account-rules.js';
import { commonPasswords } from './common-passwords.js';

const ODD: Record<string, number> = {
  '0': 1,
  '1': 0,
  '2': 5,
  '3': 7,
  '4': 9,
  '5': 13,
  '6': 15,
  '7': 17,
  '8': 19,
  '9': 21,
  A: 1,
  B: 0,
  C: 5,
  D: 7,
  E: 9,
  F: 13,
  G: 15,
  H: 17,
  I: 19,
  J: 21,
  K: 2,
  L: 4,
  M: 18,
  N: 20,
  O: 11,
  P: 3,
  Q: 6,
  R: 8,
  S: 12,
  T: 14,
  U: 16,
  V: 10,
  W: 22,
  X: 25,
  Y: 24,
  Z: 23,
};
const evenValue = (c: string) => (c >= '0' && c <= '9' ? c.charCodeAt(0) - 48 : c.charCodeAt(0) - 65);

/** Omocodia may replace any digit by one of these letters (L = 0 … V = 9). */
const FISCAL_CODE_SHAPE =
  /^[A-Z]{6}[0-9LMNPQRSTUV]{2}[ABCDEHLMPRST][0-9LMNPQRSTUV]{2}[A-Z][0-9LMNPQRSTUV]{3}[A-Z]$/;

/** The check character of the first 15 characters of an Italian fiscal code. */
export function fiscalCodeCheckCharacter(first15: string): string {
  let sum = 0;
  for (let i = 0; i < 15; i += 1) {
    const c = first15[i]!;
    // Positions count from 1: odd positions (index 0, 2, …) use the odd table.
    sum += i % 2 === 0 ? (ODD[c] ?? 0) : evenValue(c);
  }
  return String.fromCharCode(65 + (sum % 26));
}

/** An Italian codice fiscale: its shape and its check character (upper case). */
export function isValidFiscalCode(value: string): boolean {
  const code = value.trim().toUpperCase();
  return FISCAL_CODE_SHAPE.test(code) && fiscalCodeCheckCharacter(code.slice(0, 15)) === code[15];
}

/** The check letters of a Spanish DNI/NIE, by the number's remainder of 23. */
const SPANISH_ID_LETTERS = 'TRWAGMYFPDXBNJZSQVHLCKE';

/**
 * A Spanish DNI (8 digits) or NIE (X, Y or Z and 7 digits, X/Y/Z counting as 0/1/2) whose last letter
 * is the check letter of its number (upper case).
 */
export function isValidSpanishId(value: string): boolean {
  const match = /^([0-9]{8}|[XYZ][0-9]{7})([A-Z])$/.exec(value.trim());
  if (!match) return false;
  const digits = match[1]!.replace(/^[XYZ]/, (prefix) => String('XYZ'.indexOf(prefix)));
  return SPANISH_ID_LETTERS[Number(digits) % 23] === match[2];
}

/** YYYY-MM-DD that is a real calendar day, as a UTC date; else null. */
export function parseIsoDay(value: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
    ? date
    : null;
}

/** Completed years between a birth day and today (by the calendar: the birthday counts). */
export function ageOn(birth: Date, today: Date): number {
  const y = today.getUTCFullYear() - birth.getUTCFullYear();
  const beforeBirthday =
    today.getUTCMonth() < birth.getUTCMonth() ||
    (today.getUTCMonth() === birth.getUTCMonth() && today.getUTCDate() < birth.getUTCDate());
  return beforeBirthday ? y - 1 : y;
}

/** The oldest age we accept as a real birth date. */
export const MAX_AGE_YEARS = 120;

const normalisedPassword = (value: string) => value.normalize('NFKC').toLowerCase();

export const customValidators: Readonly<Record<string, CustomValidator>> = {
  /** parameter "true": an Italian fiscal code with a correct check character. */
  fiscalCode: (value) => isValidFiscalCode(value),
  /** parameter "true": a Spanish DNI or NIE with its right check letter. */
  dniNie: (value) => isValidSpanishId(value),
  /** parameter N: a real YYYY-MM-DD day, at least N and at most 120 years ago (today counts). */
  adultAge: (value, parameter, { today }) => {
    const birth = parseIsoDay(value);
    const minimum = Number.parseInt(parameter, 10);
    if (!birth || !Number.isFinite(minimum)) return false;
    const age = ageOn(birth, today);
    return age >= minimum && age <= MAX_AGE_YEARS;
  },
  /** parameter: ISO country (NL …): an E.164 number (+ and digits only) valid for that country. */
  phoneForCountry: (value, parameter) => {
    if (!/^\+[1-9][0-9]{6,14}$/.test(value)) return false;
    const phone = parsePhoneNumberFromString(value, phoneMetadata);
    return phone !== undefined && phone.number === value && phone.country === parameter && phone.isValid();
  },
  /** parameter: digits the value must start with (Spanish post code and its province). */
  zipPrefix: (value, parameter) => value.startsWith(parameter),
  /** parameter "true": not one of the most common passwords (case and width ignored). */
  notCommon: (value) => !commonPasswords.has(normalisedPassword(value)),
  /** parameter: another attribute whose value this one must differ from. */
  differsFrom: (value, parameter, { values }) => {
    const other = values[parameter];
    return typeof other !== 'string' || other.trim() !== value;
  },
};

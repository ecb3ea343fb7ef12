import { describe, expect, it } from 'vitest';
import { checkValues, compileRules } from './account-rules.js';
import {
  customValidators,
  fiscalCodeCheckCharacter,
  isValidFiscalCode,
  isValidSpanishId,
} from './account-validators.js';

const context = (values: Record<string, unknown> = {}, today = new Date('2026-11-23T10:00:00Z')) => ({
  today,
  values,
});

describe('fiscalCode', () => {
  it('accepts published codes and exactly one check character for them', () => {
    expect(isValidFiscalCode('RSSMRA85T10A562S')).toBe(true);
    expect(isValidFiscalCode('rssmra85t10a562s')).toBe(true);
    const letters = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZ'].filter((c) => isValidFiscalCode(`RSSMRA85T10A562${c}`));
    expect(letters).toEqual(['S']);
    expect(fiscalCodeCheckCharacter('RSSGLI90C55F205')).toBe('T');
  });

  it('refuses a wrong shape (month letter, length)', () => {
    expect(isValidFiscalCode('RSSMRA85Z10A562S')).toBe(false);
    expect(isValidFiscalCode('RSSMRA85T10A562')).toBe(false);
  });
});

describe('dniNie', () => {
  const letters = (first: string) =>
    [...'ABCDEFGHIJKLMNOPQRSTUVWXYZ'].filter((c) => isValidSpanishId(first + c));
  it('takes exactly one check letter for a DNI: 12345678Z, not 12345678A', () => {
    expect(letters('12345678')).toEqual(['Z']);
    expect(customValidators.dniNie!('12345678A', 'true', context())).toBe(false);
    expect(customValidators.dniNie!('12345678Z', 'true', context())).toBe(true);
    expect(letters('00000000')).toEqual(['T']);
  });

  it('counts the X, Y and Z of a NIE as 0, 1 and 2', () => {
    expect(letters('X1234567')).toEqual(['L']);
    expect(letters('Y1234567')).toEqual(['X']);
    expect(letters('Z1234567')).toEqual(['R']);
  });

  it('refuses another shape and a lower-case letter (the app and the server send capitals)', () => {
    expect(isValidSpanishId('1234567Z')).toBe(false);
    expect(isValidSpanishId('A1234567L')).toBe(false);
    expect(isValidSpanishId('12345678z')).toBe(false);
  });

  it('is a rule the served list can name, checked by the interpreter', () => {
    const rules = compileRules([{ attribute: 'passportId', validator: 'dniNie', parameter: 'true' }]);
    const check = (passportId: string) => checkValues(rules, { passportId }, { customValidators });
    expect(check('12345678A')).toEqual([{ field: 'passportId', rule: 'dniNie', parameter: 'true' }]);
    expect(check('12345678Z')).toEqual([]);
    expect(check('')).toEqual([]);
  });
});

describe('adultAge', () => {
  const adult = (value: string) => customValidators.adultAge!(value, '18', context());
  it('counts the 18th birthday itself, not the day before; refuses 121 years and non-days', () => {
    expect(adult('2008-11-23')).toBe(true);
    expect(adult('2008-11-24')).toBe(false);
    expect(adult('1906-11-23')).toBe(true);
    expect(adult('1905-11-22')).toBe(false);
    expect(adult('1990-02-30')).toBe(false);
    expect(adult('23.11.1990')).toBe(false);
  });
});

describe('phoneForCountry', () => {
  const phone = (value: string, country: string) =>
    customValidators.phoneForCountry!(value, country, context());
  it('takes E.164 numbers of the named country only', () => {
    expect(phone('+4915123456789', 'DE')).toBe(true);
    expect(phone('+4915123456789', 'AT')).toBe(false);
    expect(phone('+49 151 23456789', 'DE')).toBe(false);
    expect(phone('015123456789', 'DE')).toBe(false);
    expect(phone('+12025550123', 'DE')).toBe(false);
    expect(phone('+393331234567', 'IT')).toBe(true);
  });
});

describe('password validators through checkValues', () => {
  const rules = compileRules([
    { attribute: 'password', validator: 'notCommon', parameter: 'true' },
    { attribute: 'password', validator: 'differsFrom', parameter: 'passwordOld' },
  ]);
  it('refuses a common password whatever its case, and the old password again', () => {
    const check = (password: string) =>
      checkValues(rules, { password, passwordOld: 'Demo-2026!' }, { customValidators }).map((v) => v.rule);
    expect(check('PassWord123')).toEqual(['notCommon']);
    expect(check('Demo-2026!')).toEqual(['differsFrom']);
    expect(check('Tandem-Cykel-2026')).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { formatPhoneNumber } from './phone-format.js';
import { phoneNumberInput } from './phone-input.js';

describe('phoneNumberInput', () => {
  it('takes the spellings people type and gives E.164', () => {
    for (const typed of [
      '+39 312 345 6789',
      ' +39 312 345 6789 ',
      '+39\u00a0312\u00a0345\u00a06789',
      '+39 (312) 345-6789',
      '+39.312.345.6789',
      '+39/312/345/6789',
      '+39 312\u2011345\u20116789',
      '0039 312 345 6789',
    ])
      expect(phoneNumberInput(typed), typed).toBe('+393123456789');
  });

  it('leaves what is not a number in international form for the rules to refuse', () => {
    expect(phoneNumberInput('0151 2345678')).toBe('01512345678');
    expect(phoneNumberInput('+49 151 abc')).toBe('+49151abc');
    expect(phoneNumberInput('')).toBe('');
  });
});

describe('formatPhoneNumber', () => {
  it('groups a number as its country does, after the country code, in each of our countries', () => {
    expect(formatPhoneNumber('+393123456789')).toBe('+39 312 345 6789');
    expect(formatPhoneNumber('+4915123456789')).toBe('+49 1512 3456789');
    expect(formatPhoneNumber('+31612345678')).toBe('+31 6 12345678');
    expect(formatPhoneNumber('+436641234567')).toBe('+43 664 1234567');
    expect(formatPhoneNumber('+33612345678')).toBe('+33 6 12 34 56 78');
    expect(formatPhoneNumber('+34612345678')).toBe('+34 612 34 56 78');
    expect(formatPhoneNumber('+36301234567')).toBe('+36 30 123 4567');
    expect(formatPhoneNumber('+4520123456')).toBe('+45 20 12 34 56');
  });

  it('shows a number of another country, or a value that is not E.164, as it is', () => {
    expect(formatPhoneNumber('+447700900123')).toBe('+447700900123');
    expect(formatPhoneNumber('0151 2345678')).toBe('0151 2345678');
    expect(formatPhoneNumber('')).toBe('');
  });

  it('shows what it formats back as the same number', () => {
    for (const e164 of ['+393123456789', '+4915123456789', '+33612345678', '+4520123456'])
      expect(phoneNumberInput(formatPhoneNumber(e164))).toBe(e164);
  });
});

import { describe, expect, it } from 'vitest';
import { ibanGroups } from './iban-groups';

describe('ibanGroups', () => {
  it('keeps the last four characters together, whatever the length', () => {
    expect(ibanGroups('DE** **** **** **** **30 00')).toEqual(['DE', '****', '****', '****', '****', '3000']);
    expect(ibanGroups('ES** **** **** **** **** 1332')).toEqual([
      'ES**',
      '****',
      '****',
      '****',
      '****',
      '1332',
    ]);
    expect(ibanGroups('NL** **** **** **43 00')).toEqual(['NL', '****', '****', '****', '4300']);
  });

  it('gives nothing for an empty IBAN', () => {
    expect(ibanGroups('')).toEqual([]);
  });
});

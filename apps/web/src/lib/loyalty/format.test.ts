import { describe, expect, it } from 'vitest';
import { formatDate, formatPoints, formatSignedPoints } from './format';

describe('loyalty formats', () => {
  it('writes numbers as the customer’s language does, whatever the country (en-DE reads 4,500)', () => {
    expect(formatPoints(4500, 'en-DE')).toBe('4,500');
    expect(formatPoints(4500, 'de-DE')).toBe('4.500');
    expect(formatPoints(4500, 'de-AT')).toBe('4.500');
    expect(formatPoints(4500, 'fr-FR')).toBe('4\u202f500');
    expect(formatSignedPoints(1500, 'en-NL')).toBe('+1,500');
    expect(formatSignedPoints(-300, 'da-DK')).toBe('-300');
  });

  it('keeps the country for dates (the day before the month in en-DE)', () => {
    expect(formatDate('2026-03-05T10:00:00.000Z', 'en-DE')).toBe('5 Mar 2026');
    expect(formatDate('2026-03-05T10:00:00.000Z', 'de-DE')).toBe('05.03.2026');
  });
});

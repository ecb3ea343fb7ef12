// Intl formatters are costly to create (the history renders hundreds of rows while scrolling), so one
// of each kind is kept per locale.
const numberFormats = new Map<string, Intl.NumberFormat>();
const signedFormats = new Map<string, Intl.NumberFormat>();
const dateFormats = new Map<string, Intl.DateTimeFormat>();

function cached<F>(cache: Map<string, F>, locale: string, create: () => F): F {
  let format = cache.get(locale);
  if (!format) {
    format = create();
    cache.set(locale, format);
  }
  return format;
}

/**
 * Numbers follow the language the customer reads, not their country (issue 10: English readers in
 * Germany saw "4.500 points"): en-DE → en, de-AT → de. Dates keep the country (formatDate).
 */
const numberLocale = (locale: string) => locale.split('-')[0] || locale;

/** Points as the customer's language writes numbers, e.g. 3 250 (fr), 3.250 (de), 3,250 (en). */
export function formatPoints(points: number, locale: string): string {
  const language = numberLocale(locale);
  return cached(
    numberFormats,
    language,
    () => new Intl.NumberFormat(language, { maximumFractionDigits: 0 }),
  ).format(points);
}

/** Signed points of a history entry: +120, −300 (the sign always shows, zero has none). */
export function formatSignedPoints(points: number, locale: string): string {
  const language = numberLocale(locale);
  return cached(
    signedFormats,
    language,
    () => new Intl.NumberFormat(language, { maximumFractionDigits: 0, signDisplay: 'exceptZero' }),
  ).format(points);
}

/** A calendar date as the locale writes it, e.g. 31.12.2026 (de-DE), Dec 31, 2026 (en-DE). */
export function formatDate(isoDate: string, locale: string): string {
  return cached(
    dateFormats,
    locale,
    () => new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' }),
  ).format(new Date(isoDate));
}

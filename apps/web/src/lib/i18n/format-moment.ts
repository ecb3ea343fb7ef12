const formats = new Map<string, Intl.DateTimeFormat>();

/** A moment as the reader's language writes date and time, e.g. "26 Nov 2026, 18:40". */
export function formatMoment(iso: string, language: string): string {
  let format = formats.get(language);
  if (!format) {
    format = new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' });
    formats.set(language, format);
  }
  return format.format(new Date(iso));
}

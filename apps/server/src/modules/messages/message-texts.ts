import path from 'node:path';
import { isLanguage, normaliseLocale, type Language } from '@roadpass/contracts';
import { loadLanguageFiles, type LanguageFiles } from '../../lib/language-files.js';

/** Every text an e-mail or SMS is written from (content/messages/{lang}.json). */
export const messageKeys = [
  'email-confirmation.subject',
  'email-confirmation.body',
  'email-changed.subject',
  'email-changed.body',
  'email-in-use.subject',
  'email-in-use.body',
  'mobile-pin.sms',
  'newsletter.subject',
  'newsletter.body',
  'password-reset.subject',
  'password-reset.body',
  'new-device.subject',
  'new-device.body',
  'new-device.unknown',
  'points-expiry.subject',
  'points-expiry.body',
  'points-expiry.line',
  // docs/product/data-rights.md
  'export-ready.subject',
  'export-ready.body',
  'deletion-scheduled.subject',
  'deletion-scheduled.body',
  'deletion-done.subject',
  'deletion-done.body',
  'export-index.title',
  'export-index.intro',
  // The `text` of the mobile call's 400s: violation.{attribute}.{validator}.
  'violation.mobilePhone.required',
  'violation.mobilePhone.phone',
  'violation.mobilePhone.rangelength',
  'violation.mobilePhone.differsFrom',
  'violation.pin.required',
  'violation.pin.pattern',
  'violation.pin.pinNotRequested',
  'violation.pin.pinExpired',
  'violation.pin.pinWrong',
  'violation.pin.pinVoid',
  'violation.mobilePhone.resendWait',
  'violation.mobilePhone.resendLimit',
] as const;
export type MessageKey = (typeof messageKeys)[number];

export interface MessageTexts {
  /** Whether a text exists under this key (violation texts are looked up by attribute and rule). */
  has(key: string): key is MessageKey;
  /** The text in the customer's language (`de_DE`, `de` …; English when we have none), filled in. */
  render(language: string, key: MessageKey, values: Readonly<Record<string, string>>): string;
}

/** The language part of a customer's `de_DE`, or English. */
export function messageLanguage(language: string): Language {
  const code = language.slice(0, 2).toLowerCase();
  return isLanguage(code) ? code : 'en';
}

/**
 * An absolute link for a message in the customer's language: it names the message's locale
 * (`?locale=de-AT`), so the page it opens speaks the language of the e-mail, not the browser's.
 */
export function linkInLanguage(publicUrl: string, path: string, language: string): string {
  const url = new URL(`${publicUrl}${path}`);
  url.searchParams.set('locale', normaliseLocale(language));
  return url.href;
}

export function messageTexts(files: LanguageFiles): MessageTexts {
  return {
    has: (key): key is MessageKey => (messageKeys as readonly string[]).includes(key),
    render(language, key, values) {
      const text = files[messageLanguage(language)][key] ?? files.en[key]!;
      return text.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);
    },
  };
}

/**
 * Loads and checks the message texts of all eight languages (exactly these keys, the placeholders of
 * English): bad content fails at start, never when a message is sent.
 */
export async function loadMessageTexts(contentDir: string): Promise<MessageTexts> {
  return messageTexts(
    await loadLanguageFiles(path.join(contentDir, 'messages'), 'message texts', messageKeys),
  );
}

/** A date as the customer reads it in an e-mail or their data's index page, e.g. "26. Dezember 2026". */
export const longDate = (language: string, date: Date) =>
  new Intl.DateTimeFormat(language.replace('_', '-'), { dateStyle: 'long', timeZone: 'UTC' }).format(date);

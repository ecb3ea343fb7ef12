import rosetta from 'rosetta';
import templite from 'templite';
import { DEFAULT_LANGUAGE, isLanguage, type ContentCollection } from '@roadpass/contracts';
import { useAppStore } from '@/lib/state/app-store';

/** Values for a text's `{{placeholders}}`, and the options a caller may add. */
export type TranslationOptions = Record<string, unknown> & {
  /** Shown (with its placeholders filled) when the key has no text in the language. */
  defaultValue?: string;
  /** Another language than the active one, e.g. the one the customer just chose. */
  lng?: string;
  /** With a number, the plural form `key_one`, `key_other`, … of the language is tried first. */
  count?: number;
};

type Texts = Record<string, string>;

/**
 * The app's texts: one table per language, filled from the content collection of the active locale
 * (docs/product/account-rules.md#validation-rules) with applyTranslations, nothing built in. Keys are flat ("error-banner-title"); texts
 * use i18next's JSON form (`{{placeholder}}`, plural keys `_one`/`_other`/… chosen by
 * Intl.PluralRules), so content/translations/*.json stay what they were. Storage and interpolation
 * are rosetta's (decision 0016); this adds defaults, fallback keys, plurals and change
 * notification for React (use-translation.ts).
 */
export class Translations {
  private readonly tables = rosetta<Texts>();
  private readonly listeners = new Set<() => void>();
  private readonly pluralRules = new Map<string, Intl.PluralRules>();
  /** Changes with every language switch or added texts, so React re-renders readers. */
  version = 0;

  constructor(public language: string) {
    this.tables.locale(language);
  }

  /**
   * The text of the first key that has one in the language, its placeholders filled; else the
   * default (filled too); else the last key, as i18next answered.
   */
  t = (
    keys: string | readonly string[],
    defaultOrOptions?: string | TranslationOptions,
    moreOptions?: TranslationOptions,
  ): string => {
    const options: TranslationOptions =
      typeof defaultOrOptions === 'string'
        ? { ...moreOptions, defaultValue: defaultOrOptions }
        : (defaultOrOptions ?? {});
    const language = options.lng ?? this.language;
    const table = this.tables.table(language) ?? {};
    const list = typeof keys === 'string' ? [keys] : keys;
    for (const key of list) {
      const found = this.resolve(table, key, language, options.count);
      if (found) return this.tables.t([found], options, language);
    }
    return options.defaultValue !== undefined ? templite(options.defaultValue, options) : (list.at(-1) ?? '');
  };

  /** Whether the key has a (non-empty) text in the active language. */
  exists(key: string): boolean {
    return this.resolve(this.tables.table(this.language) ?? {}, key, this.language) !== undefined;
  }

  /** Adds texts to a language; `overwrite` false keeps the texts it already has. */
  addResourceBundle(
    language: string,
    _namespace: string,
    texts: Texts,
    _deep = true,
    overwrite = true,
  ): void {
    const current = this.tables.table(language) ?? {};
    this.tables.set(language, overwrite ? texts : { ...texts, ...current });
    this.changed();
  }

  removeResourceBundle(language: string, _namespace?: string): void {
    const table = this.tables.table(language);
    if (table) for (const key of Object.keys(table)) delete table[key];
    this.changed();
  }

  changeLanguage(language: string): Promise<void> {
    if (language !== this.language) {
      this.language = language;
      this.tables.locale(language);
      this.changed();
    }
    return Promise.resolve();
  }

  /** Calls the listener after every change; returns how to stop. */
  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private changed(): void {
    this.version += 1;
    for (const listener of this.listeners) listener();
  }

  /** The key holding the text (its plural form first, with a count), or undefined when none has one. */
  private resolve(table: Texts, key: string, language: string, count?: number): string | undefined {
    if (typeof count === 'number') {
      let rules = this.pluralRules.get(language);
      if (!rules) {
        rules = new Intl.PluralRules(language);
        this.pluralRules.set(language, rules);
      }
      for (const plural of [`${key}_${rules.select(count)}`, `${key}_other`])
        if (table[plural]) return plural;
    }
    return table[key] ? key : undefined;
  }
}

export const i18n = new Translations(DEFAULT_LANGUAGE);

/** Makes a loaded collection the active language: the texts, app state and <html lang>. */
export async function applyTranslations(collection: ContentCollection): Promise<void> {
  const language = isLanguage(collection.language) ? collection.language : DEFAULT_LANGUAGE;
  i18n.addResourceBundle(language, 'translation', collection.texts, true, true);
  await i18n.changeLanguage(language);
  useAppStore.getState().setActiveLanguage(language);
  document.documentElement.lang = language;
}

/**
 * The English texts built into the app (content/translations/en.json, a chunk of its own loaded only
 * when needed): a page that needs no login still reads English, never raw keys, when the content
 * service cannot be reached.
 */
export async function applyBuiltInEnglish(): Promise<void> {
  const { default: english } = (await import('../../../../../content/translations/en.json')) as {
    default: Record<string, string>;
  };
  i18n.addResourceBundle('en', 'translation', english, true, false);
  await i18n.changeLanguage('en');
  useAppStore.getState().setActiveLanguage('en');
  document.documentElement.lang = 'en';
}

/** A translate function, as useTranslation gives it. */
export type TFunction = Translations['t'];

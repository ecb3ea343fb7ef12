import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LANGUAGE, isLanguage, type ContentCollection } from '@roadpass/contracts';
import { useAppStore } from '@/lib/state/app-store';

/**
 * The app's i18next instance. It starts empty: every text comes from the content collection of the
 * active locale (spec §5), added with applyTranslations. Keys are flat ("error-banner-title"), so key and
 * namespace separators are off. Components give the spec's English default where one exists, for the
 * moments before (or without) loaded translations.
 */
export const i18n = i18next.createInstance();

void i18n.use(initReactI18next).init({
  lng: DEFAULT_LANGUAGE,
  fallbackLng: false,
  resources: {},
  keySeparator: false,
  nsSeparator: false,
  returnEmptyString: false,
  interpolation: { escapeValue: false },
  react: { useSuspense: false, bindI18nStore: 'added' },
  initAsync: false,
});

/** Makes a loaded collection the active language: i18next, app state and <html lang>. */
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

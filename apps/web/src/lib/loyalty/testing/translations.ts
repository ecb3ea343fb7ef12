import da from '../../../../../../content/translations/da.json';
import de from '../../../../../../content/translations/de.json';
import en from '../../../../../../content/translations/en.json';
import { i18n } from '@/lib/i18n/i18n';
import { useAppStore } from '@/lib/state/app-store';

const bundles = { en, de, da } as const;

/**
 * For tests: makes the real texts of content/translations the active language, as the content
 * collection would at start-up, so tests read what a customer reads.
 */
export async function applyRealTranslations(language: keyof typeof bundles = 'en'): Promise<void> {
  i18n.addResourceBundle(language, 'translation', bundles[language], true, true);
  await i18n.changeLanguage(language);
  useAppStore.getState().setActiveLanguage(language);
}

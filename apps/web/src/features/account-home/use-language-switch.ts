import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import { useTranslation } from '@/lib/i18n/use-translation';
import { routes, withCarriedQuery } from '@/config/routes';
import { useHttp } from '@/lib/http';
import { CONTENT_COLLECTION_ERROR, loadTranslations } from '@/lib/i18n/content-collection';
import { useAppStore } from '@/lib/state/app-store';
import { writeCountryLanguage } from '@/lib/storage/storage';
import { saveLanguage } from './api/save-language';
import { updateSessionUser } from '@/lib/session/session-user';

/**
 * Switching the UI language on the account home: load the language's content collection (cached per
 * locale), then store the preference, move to /{COUNTRY}/{newLang}/myaccount and save the language
 * on the server (a toast says whether that worked). A failed load is a
 * translation failure on a login route: error banner and page (docs/product/errors.md#error-catalogue).
 */
export function useLanguageSwitch(country: string) {
  const http = useHttp();
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const search = useSearch();
  const [pending, setPending] = useState(false);
  const { t } = useTranslation();

  const apply = useCallback(
    async (language: string): Promise<boolean> => {
      setPending(true);
      try {
        await loadTranslations({
          http,
          queryClient,
          locale: `${language}-${country}`,
          legalEntityIso: country,
        });
        return true;
      } catch (error) {
        console.error(CONTENT_COLLECTION_ERROR, error);
        useAppStore.getState().setError(true);
        return false;
      } finally {
        setPending(false);
      }
    },
    [http, queryClient, country],
  );

  const switchTo = useCallback(
    async (language: string) => {
      if (!(await apply(language))) return;
      writeCountryLanguage({ country, language });
      navigate(withCarriedQuery(routes.accountHome.build(country, language), search));
      // The customer's language is also saved on the server, so it follows them to other devices.
      const store = useAppStore.getState();
      try {
        const saved = await saveLanguage(http, language, country);
        updateSessionUser(queryClient, { language: saved.body.PersonalDataRTO.language });
        store.addToast({ message: t('language-saved', { lng: language }) });
      } catch {
        store.addToast({ message: t('language-save-failed', { lng: language }), type: 'error' });
      }
    },
    [apply, country, navigate, search, http, queryClient, t],
  );

  return { apply, switchTo, pending };
}

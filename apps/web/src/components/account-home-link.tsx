import { normaliseLocale } from '@roadpass/contracts';
import { routes } from '@/config/routes';
import { useTranslation } from '@/lib/i18n/use-translation';
import { useAppStore } from '@/lib/state/app-store';

/**
 * "Go to my account", as a button, on the pages a visitor opens from an e-mail link (confirming an
 * address, unsubscribing): a page load, so a visitor who is not signed in is signed in on the way, in
 * the language and country the page speaks.
 */
export function AccountHomeLink() {
  const { t } = useTranslation();
  const locale = useAppStore((state) => normaliseLocale(`${state.activeLanguage}-${state.homeLocation}`));
  return (
    <p>
      <a
        href={`${routes.root.build()}?${new URLSearchParams({ locale })}`}
        className="button button--primary"
      >
        {t('account-home-link')}
      </a>
    </p>
  );
}

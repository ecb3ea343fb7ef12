import { useEffect } from 'react';
import { useTranslation } from '@/lib/i18n/use-translation';
import { useQuery } from '@tanstack/react-query';
import { normaliseLocale } from '@roadpass/contracts';
import { Spinner } from '@/components/spinner';
import { routes } from '@/config/routes';
import { useHttp } from '@/lib/http';
import { useAppStore } from '@/lib/state/app-store';
import { confirmEmailQuery } from '../api/confirm-email';
import '@/components/sub-page.css';

/** /email/confirm/{token}, no login: confirms the new e-mail address and says how it went. */
export function EmailConfirmPage({ token }: { token: string }) {
  const { t } = useTranslation();
  const http = useHttp();
  const confirmation = useQuery(confirmEmailQuery(http, token));
  const title = t('email-confirm-title');
  // The page speaks the language of the e-mail (its link names the locale); the sign-in on the way
  // to the account keeps it, whatever the browser's language.
  const locale = useAppStore((s) => normaliseLocale(`${s.activeLanguage}-${s.homeLocation}`));
  const home = `${routes.root.build()}?${new URLSearchParams({ locale }).toString()}`;

  useEffect(() => {
    document.title = `${title} · ${t('app-name', 'Roadpass')}`;
  }, [title, t]);

  return (
    <section className="page card sub-page" aria-labelledby="email-confirm-title">
      <h1 id="email-confirm-title" className="sub-page__title">
        {title}
      </h1>
      <div aria-live="polite">
        {confirmation.isPending && <Spinner />}
        {confirmation.isSuccess && (
          <p className="sub-page__status">{t('email-confirm-done', { email: confirmation.data.email })}</p>
        )}
        {/* A failed link says to change the address again in the account: the way there with it. */}
        {confirmation.isError && <p>{t('email-confirm-failed')}</p>}
        {!confirmation.isPending && (
          <p>
            {/* A page load: a visitor who is not signed in is signed in on the way. */}
            <a href={home} className="button button--primary">
              {t('email-confirm-home')}
            </a>
          </p>
        )}
      </div>
    </section>
  );
}

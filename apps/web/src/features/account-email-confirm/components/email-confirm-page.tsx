import { useEffect } from 'react';
import { useTranslation } from '@/lib/i18n/use-translation';
import { useQuery } from '@tanstack/react-query';
import { AccountHomeLink } from '@/components/account-home-link';
import { Spinner } from '@/components/spinner';
import { useHttp } from '@/lib/http';
import { confirmEmailQuery } from '../api/confirm-email';
import '@/components/sub-page.css';

/** /email/confirm/{token}, no login: confirms the new e-mail address and says how it went. */
export function EmailConfirmPage({ token }: { token: string }) {
  const { t } = useTranslation();
  const http = useHttp();
  const confirmation = useQuery(confirmEmailQuery(http, token));
  const title = t('email-confirm-title');

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
        {confirmation.isError && <p>{t('email-confirm-failed')}</p>}
        {/* Confirmed, or failed (its text says to change the address again in the account). */}
        {!confirmation.isPending && <AccountHomeLink />}
      </div>
    </section>
  );
}

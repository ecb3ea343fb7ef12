import { useEffect, useRef } from 'react';
import { useTranslation } from '@/lib/i18n/use-translation';
import { useMutation, useQuery } from '@tanstack/react-query';
import { AccountHomeLink } from '@/components/account-home-link';
import { Spinner } from '@/components/spinner';
import { isHttpError, useHttp } from '@/lib/http';
import { unsubscribeLookupQuery } from '../api/get-unsubscribe-lookup';
import { unsubscribe } from '../api/unsubscribe';
import '@/components/sub-page.css';

/** A link that is unknown, used or expired (the server's 400/404); anything else is a failure to retry. */
const isDeadLink = (error: unknown) => isHttpError(error) && (error.status === 404 || error.status === 400);

/** /newsletter/unsubscribe/{token}, no login: the address of the link and one button that unsubscribes. */
export function UnsubscribePage({ token }: { token: string }) {
  const { t } = useTranslation();
  const http = useHttp();
  const lookup = useQuery(unsubscribeLookupQuery(http, token));
  const mutation = useMutation({ mutationFn: () => unsubscribe(http, token) });
  const title = t('unsubscribe-title');
  // The button goes once the answer is in: its message takes the focus, which would fall to the page.
  const answer = useRef<HTMLParagraphElement>(null);
  const answered = mutation.isSuccess || (mutation.isError && isDeadLink(mutation.error));
  useEffect(() => {
    if (answered) answer.current?.focus();
  }, [answered]);

  useEffect(() => {
    document.title = `${title} · ${t('app-name', 'Roadpass')}`;
  }, [title, t]);

  let content;
  if (lookup.isPending) content = <Spinner />;
  else if (mutation.isSuccess) {
    content = (
      <p ref={answer} tabIndex={-1}>
        {t('unsubscribe-done', { email: mutation.data.email })}
      </p>
    );
  } else if (lookup.isError || (mutation.isError && isDeadLink(mutation.error))) {
    const dead = isDeadLink(lookup.error ?? mutation.error);
    content = (
      <>
        <p ref={answer} tabIndex={-1}>
          {t(dead ? 'unsubscribe-unknown' : 'account-load-error')}
        </p>
        {/* The text says the newsletter settings are in the account. */}
        {dead && <AccountHomeLink />}
      </>
    );
  } else {
    content = (
      <>
        <p>{t('unsubscribe-question', { email: lookup.data.email })}</p>
        {mutation.isError && <p className="field__error">{t('account-save-error')}</p>}
        <button
          type="button"
          className="button button--primary"
          aria-disabled={mutation.isPending || undefined}
          onClick={() => {
            if (!mutation.isPending) mutation.mutate();
          }}
        >
          {t('unsubscribe-button')}
        </button>
      </>
    );
  }

  return (
    <section className="page card sub-page" aria-labelledby="unsubscribe-title">
      <h1 id="unsubscribe-title" className="sub-page__title">
        {title}
      </h1>
      <div aria-live="polite">{content}</div>
    </section>
  );
}

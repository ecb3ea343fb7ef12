import { useState } from 'react';
import { useTranslation } from '@/lib/i18n/use-translation';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { NewsletterLogRTO } from '@roadpass/contracts';
import { SwitchField } from '@/components/form/switch-field';
import { Spinner } from '@/components/spinner';
import { useHttp } from '@/lib/http';
import { useAppStore } from '@/lib/state/app-store';
import { newsletterQuery, updateNewsletter } from '../api/newsletter-queries';
import { privacyKeys } from '../api/query-keys';
import './privacy.css';

/** The newsletter agreement as a switch (saved at once, optimistic, rolled back on failure) and its history. */
export function NewsletterSetting() {
  const { t, i18n } = useTranslation();
  const http = useHttp();
  const queryClient = useQueryClient();
  const addToast = useAppStore((state) => state.addToast);
  const log = useQuery(newsletterQuery(http));
  const [status, setStatus] = useState('');
  const mutation = useMutation({
    mutationFn: ({ id, agreed }: { id: string; agreed: boolean }) =>
      updateNewsletter(http, id, { newsletterAgreement: agreed }),
    onMutate: async ({ agreed }) => {
      await queryClient.cancelQueries({ queryKey: privacyKeys.newsletter() });
      const previous = queryClient.getQueryData<NewsletterLogRTO>(privacyKeys.newsletter());
      if (previous) {
        queryClient.setQueryData<NewsletterLogRTO>(privacyKeys.newsletter(), {
          ...previous,
          newsletterAgreement: agreed,
        });
      }
      return { previous };
    },
    onError: (_error, _variables, context) => {
      if (context?.previous) queryClient.setQueryData(privacyKeys.newsletter(), context.previous);
      setStatus('');
      addToast({ message: t('newsletter-save-error'), type: 'error' });
    },
    onSuccess: (saved) => {
      queryClient.setQueryData(privacyKeys.newsletter(), saved);
      setStatus(t(saved.newsletterAgreement ? 'newsletter-on' : 'newsletter-off'));
    },
  });

  if (log.isPending) return <Spinner />;
  if (log.isError) {
    return (
      <p role="alert" className="privacy__error">
        {t('account-load-error')}
      </p>
    );
  }

  const date = (iso: string) =>
    new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));

  return (
    <section className="card privacy__section" aria-labelledby="newsletter-title">
      <h2 id="newsletter-title" className="privacy__title">
        {t('newsletter-title')}
      </h2>
      <p className="sub-page__status" role="status">
        {status}
      </p>
      <SwitchField
        id="newsletter-switch"
        label={t('newsletter-label')}
        hint={t('newsletter-text')}
        checked={log.data.newsletterAgreement}
        busy={mutation.isPending}
        onChange={(agreed) => mutation.mutate({ id: log.data.id, agreed })}
      />
      <h3 className="privacy__subtitle">{t('newsletter-history')}</h3>
      {log.data.history.length === 0 ? (
        <p className="privacy__text">{t('newsletter-history-empty')}</p>
      ) : (
        <ul className="privacy__history">
          {log.data.history.map((entry) => (
            <li key={`${entry.date}-${entry.action}`}>
              <time dateTime={entry.date}>{date(entry.date)}</time> {t(`newsletter-action-${entry.action}`)} ·{' '}
              {t(`newsletter-channel-${entry.channel}`)}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

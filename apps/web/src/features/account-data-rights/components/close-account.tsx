import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { dataRightsErrorCodes, legalEntityById, type AccountDeletionStatus } from '@roadpass/contracts';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { Spinner } from '@/components/spinner';
import { hasErrorCode, useHttp } from '@/lib/http';
import { needsRecentSignIn, useStepUpAction } from '@/lib/forms/step-up';
import { countryName } from '@/lib/i18n/locale';
import { useTranslation } from '@/lib/i18n/use-translation';
import { askDeletion, deletionQuery, keepAccount } from '../api/data-rights';
import { dataRightsKeys } from '../api/query-keys';
import './data-rights.css';

/** "Your account will be deleted on …" with "Keep my account" (docs/product/data-rights.md#close-my-account). */
export function DeletionScheduled({ scheduledFor }: { scheduledFor: string }) {
  const { t, i18n } = useTranslation();
  const http = useHttp();
  const queryClient = useQueryClient();
  const keep = useMutation({
    mutationFn: () => keepAccount(http),
    onSuccess: (data) => queryClient.setQueryData(dataRightsKeys.deletion(), data),
  });
  const date = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'long' }).format(new Date(scheduledFor));
  return (
    <section className="card data-rights__section" aria-labelledby="deletion-scheduled-title">
      <h2 id="deletion-scheduled-title" className="data-rights__title">
        {t('close-scheduled-title', { date })}
      </h2>
      <p className="data-rights__text">{t('close-scheduled-text')}</p>
      {keep.isError && (
        <p role="alert" className="data-rights__error">
          {t('close-error')}
        </p>
      )}
      <div className="data-rights__actions">
        <button
          type="button"
          className="button button--primary"
          onClick={() => keep.mutate()}
          disabled={keep.isPending}
        >
          {t('close-keep')}
        </button>
      </div>
    </section>
  );
}

/** The close-account page: what happens, what stops it, and the request itself. */
export function CloseAccount() {
  const { t, i18n } = useTranslation();
  const countryOf = (legalEntityId: number) => {
    const iso = legalEntityById(legalEntityId)?.isoCountry;
    return iso ? countryName(iso, i18n.language) : String(legalEntityId);
  };
  const http = useHttp();
  const queryClient = useQueryClient();
  const status = useQuery(deletionQuery(http));
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState('');
  const stepUp = useStepUpAction();
  const ask = useMutation({
    mutationFn: () => askDeletion(http),
    onSuccess: (data) => {
      setError('');
      queryClient.setQueryData(dataRightsKeys.deletion(), data);
    },
    onError: (e) => {
      if (stepUp(e)) return; // docs/product/security.md#step-up: signs in again, back to this page
      if (hasErrorCode(e, dataRightsErrorCodes.deletionBlocked)) void status.refetch();
      setError(t(needsRecentSignIn(e) ? 'data-rights-recent-sign-in' : 'close-error'));
    },
  });

  if (status.isPending) return <Spinner />;
  if (status.isError) {
    return (
      <p role="alert" className="data-rights__error">
        {t('account-load-error')}
      </p>
    );
  }
  const data: AccountDeletionStatus = status.data;
  if (data.deletion) return <DeletionScheduled scheduledFor={data.deletion.scheduledFor} />;

  return (
    <section className="card data-rights__section" aria-labelledby="close-what-title">
      <h2 id="close-what-title" className="data-rights__title">
        {t('close-what-title')}
      </h2>
      <ul className="data-rights__list">
        <li>{t('close-what-grace', { days: data.graceDays })}</li>
        <li>{t('close-what-sessions')}</li>
        <li>{t('close-what-erased')}</li>
        <li>{t('close-what-kept')}</li>
      </ul>
      {data.blockers.length > 0 ? (
        <div role="alert">
          <h3 className="data-rights__subtitle">{t('close-blocked-title')}</h3>
          <ul className="data-rights__list">
            {data.blockers.map((b) => (
              <li key={`${b.legalEntityId}-${b.kind}-${b.reference}`}>
                {t(`close-blocker-${b.kind}`, {
                  reference: b.reference,
                  // The country's name in the reader's language, after a colon: "in {{country}}" would need
                  // each language's article and case (en Hongrie, in Ungarn, a Magyarországon).
                  country: countryOf(b.legalEntityId),
                })}
              </li>
            ))}
          </ul>
          <p className="data-rights__text">{t('close-blocked-where')}</p>
        </div>
      ) : (
        <div className="data-rights__actions">
          <button
            type="button"
            className="button button--secondary"
            onClick={() => setConfirming(true)}
            disabled={ask.isPending}
          >
            {t('close-ask')}
          </button>
        </div>
      )}
      {error && (
        <p role="alert" className="data-rights__error">
          {error}
        </p>
      )}
      <ConfirmDialog
        open={confirming}
        title={t('close-confirm-title')}
        confirmLabel={t('close-confirm')}
        cancelLabel={t('close-keep')}
        onConfirm={() => {
          setConfirming(false);
          ask.mutate();
        }}
        onCancel={() => setConfirming(false)}
      >
        <p>{t('close-what-grace', { days: data.graceDays })}</p>
      </ConfirmDialog>
    </section>
  );
}

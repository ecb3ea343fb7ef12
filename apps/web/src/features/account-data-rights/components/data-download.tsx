import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { dataRightsErrorCodes } from '@roadpass/contracts';
import { Spinner } from '@/components/spinner';
import { hasErrorCode, useHttp } from '@/lib/http';
import { needsRecentSignIn, useStepUpAction } from '@/lib/forms/step-up';
import { useTranslation } from '@/lib/i18n/use-translation';
import { downloadExport, exportQuery, startExport } from '../api/data-rights';
import { dataRightsKeys } from '../api/query-keys';
import './data-rights.css';

/** "Download my data" on the privacy page (docs/product/data-rights.md#download-my-data). */
export function DataDownload() {
  const { t, i18n } = useTranslation();
  const http = useHttp();
  const queryClient = useQueryClient();
  const status = useQuery(exportQuery(http));
  const [error, setError] = useState('');
  const stepUp = useStepUpAction();
  const start = useMutation({
    mutationFn: () => startExport(http),
    onSuccess: (data) => {
      setError('');
      queryClient.setQueryData(dataRightsKeys.export(), data);
    },
    onError: (e) => {
      if (stepUp(e)) return; // docs/product/security.md#step-up: signs in again, back to this page
      setError(
        t(
          needsRecentSignIn(e)
            ? 'data-rights-recent-sign-in'
            : hasErrorCode(e, dataRightsErrorCodes.exportOncePerDay)
              ? 'download-once-per-day'
              : 'download-error',
        ),
      );
    },
  });
  const download = useMutation({
    mutationFn: () => downloadExport(http),
    onSuccess: () => setError(''),
    onError: () => setError(t('download-error')),
  });

  if (status.isPending) return <Spinner />;
  if (status.isError) {
    return (
      <p role="alert" className="data-rights__error">
        {t('account-load-error')}
      </p>
    );
  }
  const current = status.data.export;
  const date = (iso: string) =>
    new Intl.DateTimeFormat(i18n.language, { dateStyle: 'long' }).format(new Date(iso));
  const building = current?.state === 'queued' || current?.state === 'running';
  // The server answers nextAllowedAt null when a new copy may start now.
  const nextAllowedAt = status.data.nextAllowedAt;
  const canStart = nextAllowedAt === null || Date.parse(nextAllowedAt) <= status.dataUpdatedAt + 60_000;

  return (
    <section className="card data-rights__section" aria-labelledby="download-title">
      <h2 id="download-title" className="data-rights__title">
        {t('download-title')}
      </h2>
      <p className="data-rights__text">{t('download-text')}</p>
      {building && (
        <div className="data-rights__progress">
          <label htmlFor="download-progress">{t('download-building')}</label>
          <progress id="download-progress" max={100} value={current.progressPercent}>
            {current.progressPercent} %
          </progress>
        </div>
      )}
      <p className="sub-page__status" role="status">
        {current?.state === 'ready' && current.expiresAt
          ? t('download-ready', { date: date(current.expiresAt) })
          : ''}
      </p>
      {error && (
        <p role="alert" className="data-rights__error">
          {error}
        </p>
      )}
      <div className="data-rights__actions">
        {current?.state === 'ready' && (
          <button
            type="button"
            className="button button--primary"
            onClick={() => download.mutate()}
            disabled={download.isPending}
          >
            {t('download-file')}
          </button>
        )}
        {!building && canStart && (
          <button
            type="button"
            className={current?.state === 'ready' ? 'button button--secondary' : 'button button--primary'}
            onClick={() => start.mutate()}
            disabled={start.isPending}
          >
            {t('download-start')}
          </button>
        )}
      </div>
      {!building && !canStart && nextAllowedAt && (
        <p className="data-rights__text">{t('download-next', { date: date(nextAllowedAt) })}</p>
      )}
    </section>
  );
}

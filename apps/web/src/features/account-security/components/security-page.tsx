import { useState } from 'react';
import { Link } from 'wouter';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ActiveSession } from '@roadpass/contracts';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { LoadError } from '@/components/load-error';
import { Spinner } from '@/components/spinner';
import { useHttp } from '@/lib/http';
import { useTranslation } from '@/lib/i18n/use-translation';
import { endOtherSessions, endSession, sessionsQuery } from '../api/sessions';
import { securityKeys } from '../api/query-keys';
import { formatMoment } from '@/lib/i18n/format-moment';
import './security.css';

/**
 * docs/product/security.md#sessions: every active session (device, place, signed in, last active,
 * this device), signing out one, and signing out all others after a confirmation.
 */
export function SecurityPage({ activityHref, passkeysHref }: { activityHref: string; passkeysHref: string }) {
  const { t, i18n } = useTranslation();
  const http = useHttp();
  const queryClient = useQueryClient();
  const sessions = useQuery(sessionsQuery(http));
  const [status, setStatus] = useState('');
  const [confirming, setConfirming] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: securityKeys.all });
  const endOne = useMutation({
    mutationFn: (id: string) => endSession(http, id),
    onSuccess: () => {
      setStatus(t('security-session-ended'));
      return refresh();
    },
    onError: () => setStatus(t('account-save-error')),
  });
  const endOthers = useMutation({
    mutationFn: () => endOtherSessions(http),
    onSuccess: ({ sessionsEnded }) => {
      setStatus(t('security-others-ended', { count: sessionsEnded }));
      return refresh();
    },
    onError: () => setStatus(t('account-save-error')),
  });

  if (sessions.isPending) return <Spinner />;
  if (sessions.isError)
    return (
      <LoadError
        error={sessions.error}
        onRetry={() => void sessions.refetch()}
        retrying={sessions.isFetching}
      />
    );
  const list = sessions.data.sessions;
  const others = list.filter((s) => !s.current);
  const describe = (s: ActiveSession) =>
    [s.client || t('security-unknown-device'), s.system].filter(Boolean).join(' · ');

  return (
    <div className="security">
      <p className="sub-page__status" role="status">
        {status}
      </p>
      <section className="card" aria-labelledby="security-sessions-title">
        <h2 id="security-sessions-title" className="security__title">
          {t('security-sessions-title')}
        </h2>
        <ul className="security__sessions">
          {list.map((s) => (
            <li key={s.id} className="security__session">
              <p className="security__device">
                {describe(s)}
                {s.current && <span className="security__badge"> {t('security-this-device')}</span>}
              </p>
              <dl className="security__facts">
                <dt>{t('security-where')}</dt>
                <dd>{s.place ?? (s.network || t('security-unknown-place'))}</dd>
                <dt>{t('security-signed-in')}</dt>
                <dd>{formatMoment(s.signedInAt, i18n.language)}</dd>
                <dt>{t('security-last-active')}</dt>
                <dd>{formatMoment(s.lastActiveAt, i18n.language)}</dd>
              </dl>
              {!s.current && (
                <button
                  type="button"
                  className="button button--secondary"
                  aria-disabled={endOne.isPending || undefined}
                  onClick={() => {
                    if (!endOne.isPending) endOne.mutate(s.id);
                  }}
                >
                  {t('security-sign-out')}
                  <span className="visually-hidden"> ({describe(s)})</span>
                </button>
              )}
            </li>
          ))}
        </ul>
        {others.length > 0 && (
          <button type="button" className="button button--primary" onClick={() => setConfirming(true)}>
            {t('security-sign-out-others')}
          </button>
        )}
      </section>
      {/* docs/product/security.md#passkeys: passkeys are added and managed from here. */}
      <section className="card" aria-labelledby="security-passkeys-title">
        <h2 id="security-passkeys-title" className="security__title">
          {t('passkeys-title')}
        </h2>
        <p className="security__text">{t('account-menu-passkeys-text')}</p>
        <p className="security__text">
          <Link href={passkeysHref} className="security__link">
            {t('security-passkeys-link')}
          </Link>
        </p>
      </section>
      <p>
        <Link href={activityHref} className="security__link">
          {t('security-activity-link')}
        </Link>
      </p>
      <ConfirmDialog
        open={confirming}
        title={t('security-confirm-title')}
        confirmLabel={t('security-sign-out-others')}
        cancelLabel={t('security-confirm-cancel')}
        onConfirm={() => {
          setConfirming(false);
          endOthers.mutate();
        }}
        onCancel={() => setConfirming(false)}
      >
        <p>{t('security-confirm-text', { count: others.length })}</p>
      </ConfirmDialog>
    </div>
  );
}

import { Fragment } from 'react';
import { useTranslation } from '@/lib/i18n/use-translation';
import { useQuery } from '@tanstack/react-query';
import type { PaymentProfile } from '@roadpass/contracts';
import { LoadError } from '@/components/load-error';
import { Spinner } from '@/components/spinner';
import { useHttp } from '@/lib/http';
import { paymentHandoverAddress } from '@/lib/native-bridge';
import { useAppStore } from '@/lib/state/app-store';
import { paymentProfilesQuery } from '../api/get-payment-profiles';
import { ibanGroups } from '../iban-groups';
import { BrandMark, brandOf } from './brand-mark';
import './payment-list.css';

function expiryText(profile: Extract<PaymentProfile, { type: 'CARD' }>, language: string): string {
  return new Intl.DateTimeFormat(language, { month: '2-digit', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(Date.UTC(profile.expiryYear, profile.expiryMonth - 1, 1)),
  );
}

function isExpired(profile: Extract<PaymentProfile, { type: 'CARD' }>, today: Date): boolean {
  const year = today.getFullYear();
  const month = today.getMonth() + 1;
  return profile.expiryYear < year || (profile.expiryYear === year && profile.expiryMonth < month);
}

/**
 * The customer's payment methods as cards: brand, last four or masked IBAN, expiry, holder, default.
 * They are changed in the native app: inside it, a button hands over to its payment screen; in a
 * browser, a sentence says where (issue 17: the link led to a page outside the frame, a dead end).
 */
export function PaymentList({ today = new Date() }: { today?: Date }) {
  const { t, i18n } = useTranslation();
  const http = useHttp();
  const profiles = useQuery(paymentProfilesQuery(http));
  const isWebView = useAppStore((state) => state.isWebView);
  const homeLocation = useAppStore((state) => state.homeLocation);

  if (profiles.isPending) return <Spinner />;
  if (profiles.isError) {
    return (
      <LoadError
        error={profiles.error}
        onRetry={() => void profiles.refetch()}
        retrying={profiles.isFetching}
      />
    );
  }

  return (
    <>
      {profiles.data.length === 0 ? (
        <div className="card payment-list__empty">
          <p>{t('payment-list-empty')}</p>
        </div>
      ) : (
        <ul className="payment-list">
          {profiles.data.map((profile) => {
            const brand = brandOf(profile);
            return (
              <li key={profile.id} className="card payment-card">
                <BrandMark brand={brand} />
                <div className="payment-card__text">
                  <p className="payment-card__title">
                    {t(`payment-brand-${brand}`)}
                    {profile.type === 'CARD' && (
                      <span className="payment-card__number">
                        {' '}
                        {t('payment-card-ending', { last4: profile.last4 })}
                      </span>
                    )}
                  </p>
                  {profile.type === 'SEPA' && (
                    <p className="payment-card__iban">
                      <span className="visually-hidden">{t('payment-iban')} </span>
                      {ibanGroups(profile.maskedIban).map((group, index) => (
                        <Fragment key={index}>
                          {index > 0 && ' '}
                          <span className="payment-card__iban-group">{group}</span>
                        </Fragment>
                      ))}
                    </p>
                  )}
                  {profile.type === 'CARD' && (
                    <p className="payment-card__detail">
                      {t(isExpired(profile, today) ? 'payment-card-expired' : 'payment-card-expires', {
                        date: expiryText(profile, i18n.language),
                      })}
                    </p>
                  )}
                  <p className="payment-card__detail">{profile.holder}</p>
                </div>
                {profile.isDefault && <span className="payment-card__badge">{t('payment-default')}</span>}
              </li>
            );
          })}
        </ul>
      )}
      {isWebView ? (
        // A page load, not a route of the app: the host app catches this address (docs/product/addresses-and-routes.md#screens-and-routes's payment
        // redirect) and shows its payment screen (docs/native-bridge.md).
        <p>
          <a
            className="button button--secondary"
            href={paymentHandoverAddress(`${i18n.language}_${homeLocation}`)}
          >
            {t('payment-manage')}
          </a>
        </p>
      ) : (
        <p className="card payment-list__where">{t('payment-profiles-text')}</p>
      )}
    </>
  );
}

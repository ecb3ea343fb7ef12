import { Fragment } from 'react';
import { useTranslation } from '@/lib/i18n/use-translation';
import { useQuery } from '@tanstack/react-query';
import { appPaths, type PaymentProfile } from '@roadpass/contracts';
import { Spinner } from '@/components/spinner';
import { useHttp } from '@/lib/http';
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

/** The customer's payment profiles as cards: brand, last four or masked IBAN, expiry, holder, default. */
export function PaymentList({ today = new Date() }: { today?: Date }) {
  const { t, i18n } = useTranslation();
  const http = useHttp();
  const profiles = useQuery(paymentProfilesQuery(http));

  if (profiles.isPending) return <Spinner />;
  if (profiles.isError) {
    return (
      <p role="alert" className="payment-list__error">
        {t('account-load-error')}
      </p>
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
      <p>
        <a className="button button--secondary" href={appPaths.paymentProfilesRedirect}>
          {t('payment-manage')}
        </a>
      </p>
    </>
  );
}

import { useEffect, type ReactNode } from 'react';
import { useTranslation } from '@/lib/i18n/use-translation';
import { Link } from 'wouter';
import { routes } from '@/config/routes';
import { legalEntityById, legalEntityByCountry, type SessionUser } from '@roadpass/contracts';
import { countryName } from '@/lib/i18n/locale';
import { useAppStore } from '@/lib/state/app-store';
import { useLanguageSwitch } from '../use-language-switch';
import { AccountMenu } from './account-menu';
import { LanguageSwitcher } from './language-switcher';
import './account-home.css';

interface AccountHomeProps {
  user: SessionUser;
  /** Country and language of the address (already checked against the customer by the route). */
  country: string;
  language: string;
  /** Where the loyalty programme starts (the page composes the areas). */
  loyaltyHref: string;
  /** Extra actions composed in by the page, e.g. sign-out. */
  actions?: ReactNode;
}

/** The first signed-in page: who is signed in, for which legal entity, and the UI language. */
export function AccountHome({ user, country, language, loyaltyHref, actions }: AccountHomeProps) {
  const { t, i18n } = useTranslation();
  const activeLanguage = useAppStore((state) => state.activeLanguage);
  const { apply, switchTo, pending } = useLanguageSwitch(country);

  const entity = legalEntityById(user.legalEntityId) ?? legalEntityByCountry(country);
  const displayLanguage = i18n.language;
  const fullName = [user.firstName, user.lastName].filter(Boolean).join(' ');

  // The address names the language (e.g. after going back in history): show that one.
  useEffect(() => {
    if (language !== activeLanguage) void apply(language);
    // Only a change of address should trigger this, not the language state it sets.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [language]);

  useEffect(() => {
    document.title = `${t('account-home-title', 'My account')} · ${t('app-name', 'Roadpass')}`;
  }, [t]);

  return (
    <section className="page account-home" aria-labelledby="account-home-name">
      <div className="card account-home__identity">
        <span className="account-home__avatar" aria-hidden="true">
          {(user.firstName.charAt(0) + user.lastName.charAt(0)).toLocaleUpperCase(displayLanguage)}
        </span>
        <div className="account-home__who">
          <p className="account-home__eyebrow">{t('account-home-title', 'My account')}</p>
          <h1 id="account-home-name" className="account-home__name">
            {fullName}
          </h1>
          <dl className="account-home__facts">
            <div>
              <dt className="visually-hidden">{t('account-email', 'E-mail')}</dt>
              <dd className="account-home__email">{user.email}</dd>
            </div>
          </dl>
          {entity && (
            <p className="account-home__entity">
              {t('account-contract-country', {
                defaultValue: 'Contract country: {{country}}',
                country: countryName(entity.isoCountry, displayLanguage),
              })}
            </p>
          )}
        </div>
      </div>

      <AccountMenu country={country} language={language} />

      <Link className="card account-home__loyalty" href={loyaltyHref}>
        <span className="account-home__loyalty-text">
          <span className="account-home__section-title">
            {t('account-loyalty-title', 'Loyalty programme')}
          </span>
          <span className="account-home__loyalty-lead">
            {t('account-loyalty-text', 'Collect points with every rental and unlock rewards.')}
          </span>
        </span>
        <span className="account-home__loyalty-arrow" aria-hidden="true">
          →
        </span>
      </Link>

      <div className="card account-home__settings">
        <h2 className="account-home__section-title">{t('account-settings', 'Settings')}</h2>
        <LanguageSwitcher
          languages={entity?.languages ?? [language]}
          value={language}
          busy={pending}
          onChange={(next) => void switchTo(next)}
        />
      </div>

      <p className="account-home__close">
        {/* docs/product/data-rights.md#close-my-account: its own page, out of the way. */}
        <Link href={routes.account.close.build(country, language)}>{t('account-close-link')}</Link>
      </p>

      {actions && <div className="account-home__actions">{actions}</div>}
    </section>
  );
}

import { useTranslation } from '@/lib/i18n/use-translation';
import { Link } from 'wouter';

/**
 * A field the customer cannot change here (e.g. the HU address), shown as text, not as a disabled
 * input: there is nothing to fill in. A broken rule of its stored value is still said under it.
 */
export function ReadonlyValue({
  id,
  label,
  value,
  error,
}: {
  id: string;
  label: string;
  value: string | null;
  error?: string | undefined;
}) {
  const { t } = useTranslation();
  return (
    <div className="profile__readonly">
      <dl>
        <dt>{label}</dt>
        <dd id={id}>{value ?? <span className="profile__empty">{t('profile-not-given')}</span>}</dd>
      </dl>
      {error && <p className="field__error">{error}</p>}
    </div>
  );
}

/** The mobile number changes only with a PIN sent to it: shown as text, with the way to its own page. */
export function MobileNumber({
  label,
  number,
  href,
}: {
  label: string;
  number: string | null;
  href: string;
}) {
  const { t } = useTranslation();
  return (
    <div className="profile__readonly profile__mobile">
      <dl>
        <dt>{label}</dt>
        <dd>{number ?? <span className="profile__empty">{t('profile-mobile-none')}</span>}</dd>
      </dl>
      <p className="profile__mobile-hint">{t('profile-mobile-hint')}</p>
      <Link className="profile__link" href={href}>
        {t('profile-mobile-change')}
      </Link>
    </div>
  );
}

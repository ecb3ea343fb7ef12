import { useTranslation } from '@/lib/i18n/use-translation';
import { Link } from 'wouter';
import { routes, type AccountPage } from '@/config/routes';

/** The sub-pages of the account area, in the order the menu shows them. */
const menu: { page: Exclude<AccountPage, 'securityActivity'>; icon: string }[] = [
  // Simple 24×24 outline glyphs (stroke), drawn here so the menu needs no icon library.
  { page: 'profile', icon: 'M12 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8ZM4.5 20.5a7.5 7.5 0 0 1 15 0' },
  { page: 'password', icon: 'M6 11h12v9H6zM8.5 11V8a3.5 3.5 0 0 1 7 0v3M12 15v2' },
  { page: 'mobile', icon: 'M8 3h8a1 1 0 0 1 1 1v16a1 1 0 0 1-1 1H8a1 1 0 0 1-1-1V4a1 1 0 0 1 1-1Zm3 15h2' },
  { page: 'privacy', icon: 'M12 3l7 3v5c0 4.5-3 8-7 10-4-2-7-5.5-7-10V6l7-3Zm-3 9 2 2 4-4' },
  { page: 'payment', icon: 'M3 6h18v12H3zM3 10h18M6 15h4' },
  // docs/product/security.md#sessions: devices, sessions and the security activity.
  { page: 'security', icon: 'M4 5h16v10H4zM9 19h6M12 15v4' },
  // docs/product/security.md#passkeys: a key.
  {
    page: 'passkeys',
    icon: 'M14.5 13a4.5 4.5 0 1 0-4.2-2.9L3 17.5V21h3.5v-2h2v-2h2l1.9-1.9a4.5 4.5 0 0 0 2.1-.1ZM16 7.5h.01',
  },
];

/** docs/product/account-rules.md#validation-rules: the account area's menu, one entry per sub-page (icon, title, one line). */
export function AccountMenu({ country, language }: { country: string; language: string }) {
  const { t } = useTranslation();
  return (
    <nav className="card account-menu" aria-labelledby="account-menu-title">
      <h2 id="account-menu-title" className="account-home__section-title">
        {t('account-menu-title', 'Your details')}
      </h2>
      <ul className="account-menu__list">
        {menu.map(({ page, icon }) => (
          <li key={page}>
            <Link className="account-menu__item" href={routes.account[page].build(country, language)}>
              <svg className="account-menu__icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
                <path d={icon} />
              </svg>
              <span className="account-menu__text">
                <span className="account-menu__title">{t(`account-menu-${page}-title`)}</span>
                <span className="account-menu__line">{t(`account-menu-${page}-text`)}</span>
              </span>
              <span className="account-menu__arrow" aria-hidden="true">
                →
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

import { useTranslation } from 'react-i18next';

export function TopBar() {
  const { t } = useTranslation();
  return (
    <header className="top-bar">
      <div className="top-bar__inner">
        <span className="top-bar__brand">
          <svg className="top-bar__logo" viewBox="0 0 32 32" aria-hidden="true" focusable="false">
            <rect width="32" height="32" rx="8" />
            <path d="M7 20l3-7a3 3 0 0 1 2.8-2h6.4a3 3 0 0 1 2.8 2l3 7v3H7z" fill="#fff" />
          </svg>
          {t('app-name', 'Roadpass')}
        </span>
      </div>
    </header>
  );
}

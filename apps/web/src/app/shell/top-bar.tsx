import { useTranslation } from 'react-i18next';

export function TopBar() {
  const { t } = useTranslation();
  return (
    <header className="top-bar">
      <div className="top-bar__inner">
        <span className="top-bar__brand">
          {/* The same car mark as the sign-in pages, so both read as one product. */}
          <svg className="top-bar__logo" viewBox="0 0 32 32" aria-hidden="true" focusable="false">
            <rect width="32" height="32" rx="8" />
            <path
              transform="translate(4 4)"
              fill="#fff"
              d="M5.3 10.2 6.8 6.3A2 2 0 0 1 8.7 5h6.6a2 2 0 0 1 1.9 1.3l1.5 3.9A2 2 0 0 1 20 12.1V17a1 1 0 0 1-1 1h-.6a2.4 2.4 0 0 1-4.8 0h-3.2a2.4 2.4 0 0 1-4.8 0H5a1 1 0 0 1-1-1v-4.9a2 2 0 0 1 1.3-1.9Zm2.2-.2h9l-1.1-3a.8.8 0 0 0-.7-.5H9.3a.8.8 0 0 0-.7.5ZM7 13.2a1.2 1.2 0 1 0 0 2.4 1.2 1.2 0 0 0 0-2.4Zm10 0a1.2 1.2 0 1 0 0 2.4 1.2 1.2 0 0 0 0-2.4Z"
            />
          </svg>
          {t('app-name', 'Roadpass')}
        </span>
      </div>
    </header>
  );
}

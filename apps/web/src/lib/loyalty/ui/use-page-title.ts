import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';

/** document.title for a loyalty screen: "{title} · Roadpass". */
export function usePageTitle(title: string): void {
  const { t } = useTranslation();
  useEffect(() => {
    document.title = `${title} · ${t('app-name', 'Roadpass')}`;
  }, [title, t]);
}

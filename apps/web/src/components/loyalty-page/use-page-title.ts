import { useEffect } from 'react';
import { useTranslation } from '@/lib/i18n/use-translation';

/** document.title for a loyalty screen: "{title} · Roadpass". */
export function usePageTitle(title: string): void {
  const { t } = useTranslation();
  useEffect(() => {
    document.title = `${title} · ${t('app-name', 'Roadpass')}`;
  }, [title, t]);
}

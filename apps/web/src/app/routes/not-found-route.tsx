import { useEffect } from 'react';
import { useTranslation } from '@/lib/i18n/use-translation';
import { routes } from '@/config/routes';

/** Any address the app does not have (outside the loyalty app): what happened and the way home. */
export default function NotFoundRoute() {
  const { t } = useTranslation();
  const title = t('not-found-title', 'This page does not exist');

  useEffect(() => {
    document.title = `${title} · ${t('app-name', 'Roadpass')}`;
  }, [t, title]);

  return (
    <section className="page card not-found" aria-labelledby="not-found-title">
      <h1 id="not-found-title">{title}</h1>
      <p>{t('not-found-text', 'The address may be mistyped, or the page has moved.')}</p>
      <p>
        {/* A page load: a visitor who is not signed in yet is signed in on the way. */}
        <a href={routes.root.build()} className="button button--primary">
          {t('not-found-home', 'Go to my account')}
        </a>
      </p>
    </section>
  );
}

import { useTranslation } from '@/lib/i18n/use-translation';

/** Shown when /config.json is missing or invalid: a readable list for whoever runs the app. */
export function ConfigErrorPage({ problems }: { problems: string[] }) {
  const { t } = useTranslation();
  return (
    <section className="page config-error" aria-labelledby="config-error-title">
      <h1 id="config-error-title">{t('config-error-title', 'Roadpass cannot start')}</h1>
      <p>
        {t(
          'config-error-description',
          "The app's configuration is not valid. Please contact support and pass on the details below.",
        )}
      </p>
      <ul className="config-error__problems">
        {problems.map((problem) => (
          <li key={problem}>
            <code>{problem}</code>
          </li>
        ))}
      </ul>
    </section>
  );
}

import { useId } from 'react';
import { useTranslation } from '@/lib/i18n/use-translation';
import { nativeLanguageName } from '@/lib/i18n/locale';

interface LanguageSwitcherProps {
  languages: readonly string[];
  value: string;
  busy: boolean;
  onChange: (language: string) => void;
}

/** A labelled select of the legal entity's languages, each named in its own language. */
export function LanguageSwitcher({ languages, value, busy, onChange }: LanguageSwitcherProps) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {t('language-label', 'Language')}
      </label>
      <select
        id={id}
        className="field__select"
        value={value}
        aria-busy={busy}
        onChange={(event) => onChange(event.target.value)}
      >
        {languages.map((language) => (
          <option key={language} value={language} lang={language}>
            {nativeLanguageName(language)}
          </option>
        ))}
      </select>
    </div>
  );
}

import { useState } from 'react';
import { useTranslation } from '@/lib/i18n/use-translation';

/** Signs out at the identity provider; the browser leaves the app, so the button stays busy. */
export function SignOutButton({
  onSignOut,
  compact = false,
}: {
  onSignOut: () => Promise<void>;
  /** The top bar's slim variant. */
  compact?: boolean;
}) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);

  const signOut = () => {
    setBusy(true);
    onSignOut().catch((error: unknown) => {
      console.error('Sign-out failed', error);
      setBusy(false);
    });
  };

  return (
    <button
      type="button"
      className={compact ? 'top-bar__link top-bar__sign-out' : 'button button--secondary'}
      aria-busy={busy}
      onClick={signOut}
    >
      {compact ? (
        <>
          {/* On a phone the bar shows the door alone (the words stay its name): with them, French and
              Spanish needed a second row. */}
          <svg
            className="top-bar__sign-out-icon"
            viewBox="0 0 24 24"
            width="24"
            height="24"
            aria-hidden="true"
            focusable="false"
          >
            <path d="M10 4H6a2 2 0 0 0-2 2v12a2 2 0 0 0 2 2h4M15 16l4-4-4-4M19 12H9" />
          </svg>
          <span className="top-bar__sign-out-text">{t('sign-out', 'Sign out')}</span>
        </>
      ) : (
        t('sign-out', 'Sign out')
      )}
    </button>
  );
}

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
      {t('sign-out', 'Sign out')}
    </button>
  );
}

import { useEffect } from 'react';
import { useTranslation } from '@/lib/i18n/use-translation';
import { useAppStore, type Toast } from '@/lib/state/app-store';

/** Spec §9: a toast with autoClose removes itself after 5 seconds. */
export const TOAST_AUTO_CLOSE_MS = 5000;

function ToastItem({ toast }: { toast: Toast }) {
  const { t } = useTranslation();
  const removeToast = useAppStore((state) => state.removeToast);

  useEffect(() => {
    if (!toast.autoClose) return;
    const timer = setTimeout(() => removeToast(toast.id), TOAST_AUTO_CLOSE_MS);
    return () => clearTimeout(timer);
  }, [toast.id, toast.autoClose, removeToast]);

  return (
    <div className={`toast toast--${toast.type}`} role="status">
      <span className="toast__message">{toast.message}</span>
      <button
        type="button"
        className="toast__close"
        aria-label={t('toast-dismiss', 'Dismiss')}
        onClick={() => removeToast(toast.id)}
      >
        <span aria-hidden="true">×</span>
      </button>
    </div>
  );
}

export function Toasts() {
  const { t } = useTranslation();
  const toasts = useAppStore((state) => state.toasts);
  return (
    <section className="toasts" aria-label={t('notifications-label', 'Notifications')}>
      {toasts.map((toast) => (
        <ToastItem key={toast.id} toast={toast} />
      ))}
    </section>
  );
}

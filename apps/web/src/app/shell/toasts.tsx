import { useEffect, useRef } from 'react';
import { useTranslation } from '@/lib/i18n/use-translation';
import { useCoveredArea } from '@/lib/layout/use-covered-area';
import { useAppStore, type Toast } from '@/lib/state/app-store';

/** docs/product/constants.md#business-constants: a toast with autoClose removes itself after 5 seconds. */
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

/** Where the toasts end, with a gap: what Tab scrolls into view stops below them (WCAG 2.4.11). */
const toastsBottom = (stack: HTMLElement) =>
  stack.childElementCount > 0 ? stack.getBoundingClientRect().bottom + 8 : null;

export function Toasts() {
  const { t } = useTranslation();
  const toasts = useAppStore((state) => state.toasts);
  const stack = useRef<HTMLElement>(null);
  useCoveredArea(stack, '--toasts-bottom', toastsBottom);
  return (
    <section ref={stack} className="toasts" aria-label={t('notifications-label', 'Notifications')}>
      {toasts.map((toast) => (
        <ToastItem key={toast.id} toast={toast} />
      ))}
    </section>
  );
}

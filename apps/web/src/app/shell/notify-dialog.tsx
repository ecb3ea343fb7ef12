import { useTranslation } from '@/lib/i18n/use-translation';
import { Dialog } from '@/components/dialog';
import { useAppStore } from '@/lib/state/app-store';

/** The notify dialog of docs/product/data.md#entities-and-fields with the default texts of docs/product/errors.md#error-catalogue. */
export function NotifyDialog() {
  const { t } = useTranslation();
  const notify = useAppStore((state) => state.notify);
  const closeNotify = useAppStore((state) => state.closeNotify);

  return (
    <Dialog
      open={notify !== null}
      title={notify?.title ?? t('error-dialog-title', 'Error')}
      closeLabel={t('error-dialog-close', 'Close')}
      onClose={closeNotify}
    >
      <p>{notify?.message ?? t('error-dialog-message', 'An unexpected error occured!')}</p>
    </Dialog>
  );
}

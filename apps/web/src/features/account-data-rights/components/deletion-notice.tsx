import { useTranslation } from '@/lib/i18n/use-translation';
import { DeletionScheduled } from './close-account';

/** The page the guard shows while a deletion is scheduled (its own chunk: rarely needed). */
export default function DeletionNotice({ scheduledFor }: { scheduledFor: string }) {
  const { t } = useTranslation();
  return (
    <section className="page" aria-labelledby="deletion-guard-title">
      <h1 id="deletion-guard-title">{t('close-title')}</h1>
      <DeletionScheduled scheduledFor={scheduledFor} />
    </section>
  );
}

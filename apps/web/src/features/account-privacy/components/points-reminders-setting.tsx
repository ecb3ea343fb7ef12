import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PointsReminderSetting as Setting, SessionUser } from '@roadpass/contracts';
import { SwitchField } from '@/components/form/switch-field';
import { Spinner } from '@/components/spinner';
import { useHttp } from '@/lib/http';
import { useTranslation } from '@/lib/i18n/use-translation';
import { pointsRemindersQuery, savePointsReminders } from '@/lib/loyalty/api/points-reminders';
import { loyaltyKeys } from '@/lib/loyalty/api/query-keys';
import { useAppStore } from '@/lib/state/app-store';
import './privacy.css';

/**
 * "Points reminders" (docs/product/account.md#points-reminders): the e-mails before points expire, a
 * service message that is on unless turned off here. Saved at once, shown at once, put back on failure.
 */
export function PointsRemindersSetting({ user }: { user: SessionUser }) {
  const { t } = useTranslation();
  const http = useHttp();
  const queryClient = useQueryClient();
  const addToast = useAppStore((state) => state.addToast);
  const key = loyaltyKeys.pointsReminders(user.uuid);
  const setting = useQuery(pointsRemindersQuery(http, user.uuid));
  const [status, setStatus] = useState('');
  const mutation = useMutation({
    mutationFn: (on: boolean) => savePointsReminders(http, user.uuid, on),
    onMutate: async (on) => {
      await queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueryData<Setting>(key);
      queryClient.setQueryData<Setting>(key, { pointsReminders: on });
      return { previous };
    },
    onError: (_error, _on, context) => {
      if (context?.previous) queryClient.setQueryData(key, context.previous);
      setStatus('');
      addToast({ message: t('points-reminders-save-error'), type: 'error' });
    },
    onSuccess: (saved) => {
      queryClient.setQueryData(key, saved);
      setStatus(t(saved.pointsReminders ? 'points-reminders-on' : 'points-reminders-off'));
    },
  });

  if (setting.isPending) return <Spinner />;
  if (setting.isError) {
    return (
      <p role="alert" className="privacy__error">
        {t('points-reminders-load-error')}
      </p>
    );
  }

  return (
    <section className="card privacy__section" aria-labelledby="points-reminders-title">
      <h2 id="points-reminders-title" className="privacy__title">
        {t('points-reminders-title')}
      </h2>
      <p className="sub-page__status" role="status">
        {status}
      </p>
      <SwitchField
        id="points-reminders-switch"
        label={t('points-reminders-label')}
        hint={t('points-reminders-text')}
        checked={setting.data.pointsReminders}
        busy={mutation.isPending}
        onChange={(on) => mutation.mutate(on)}
      />
    </section>
  );
}

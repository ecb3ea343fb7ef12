import { queryOptions } from '@tanstack/react-query';
import { apiPaths, type PointsReminderSetting } from '@roadpass/contracts';
import type { HttpClient } from '@/lib/http';
import { loyaltyKeys } from './query-keys';

/**
 * The customer's "Points reminders" choice (docs/product/account.md#points-reminders): the privacy page
 * shows and changes it, the webview's push hint follows it.
 */
export const pointsRemindersQuery = (http: HttpClient, uuid: string) =>
  queryOptions({
    queryKey: loyaltyKeys.pointsReminders(uuid),
    queryFn: () => http.get<PointsReminderSetting>(apiPaths.pointsReminders(uuid)),
    staleTime: 0,
  });

/** PUT the choice; answers what the server saved. */
export const savePointsReminders = (http: HttpClient, uuid: string, pointsReminders: boolean) =>
  http.put<PointsReminderSetting>(apiPaths.pointsReminders(uuid), { pointsReminders });

import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { LoyaltyExpiryForecast } from '@roadpass/contracts';
import { useHttp } from '@/lib/http';
import { useTranslation } from '@/lib/i18n/use-translation';
import { expiryForecastQuery } from '@/lib/loyalty/api/get-expiry-forecast';
import { pointsRemindersQuery } from '@/lib/loyalty/api/points-reminders';
import { formatPoints } from '@/lib/loyalty/format';
import { useLoyaltyLocale } from '@/lib/loyalty/loyalty-locale';
import { useCustomer } from '@/lib/loyalty/use-customer';
import { pointsExpiryHint } from '@/lib/native-bridge/native-bridge';
import { readItem, storageKeys, writeItem } from '@/lib/storage/storage';

const DAY_MS = 86_400_000;

/**
 * The hint due for a forecast at `now`: the nearest expiry, if it is within a reminder window
 * (`reminderDays`, the e-mail's), keyed by its date and the window's kind (`days-7`, …) as the
 * e-mail's reminders are. Null when nothing is due.
 */
export function dueHint(
  forecast: LoyaltyExpiryForecast,
  now: number,
): { key: string; points: number; expiresAt: string } | null {
  const next = forecast.nextExpiry;
  if (!next) return null;
  const daysLeft = (Date.parse(next.date) - now) / DAY_MS;
  const window = [...forecast.reminderDays].sort((a, b) => a - b).find((days) => daysLeft <= days);
  if (window === undefined || daysLeft <= 0) return null;
  return { key: `${next.date}:days-${window}`, points: next.points, expiresAt: next.date };
}

const sentKeys = (): string[] => {
  try {
    const parsed: unknown = JSON.parse(readItem(localStorage, storageKeys.pointsExpiryHints) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter((k): k is string => typeof k === 'string') : [];
  } catch {
    return [];
  }
};

/**
 * Webview, loyalty notifications on (the host's flags): hands the native app a push hint when points
 * expire within a reminder window and the customer keeps "Points reminders" on
 * (docs/product/loyalty.md#expiry-reminders). Each key once: the keys handed over are remembered.
 */
export function usePointsExpiryHint(active: boolean) {
  const { t } = useTranslation();
  const http = useHttp();
  const { uuid } = useCustomer();
  const { formatLocale } = useLoyaltyLocale();
  const forecast = useQuery({ ...expiryForecastQuery(http, uuid), enabled: active });
  const reminders = useQuery({ ...pointsRemindersQuery(http, uuid), enabled: active });

  useEffect(() => {
    if (!active || !forecast.data || reminders.data?.pointsReminders !== true) return;
    const hint = dueHint(forecast.data, Date.now());
    if (!hint) return;
    const sent = sentKeys();
    if (sent.includes(hint.key)) return;
    const date = new Intl.DateTimeFormat(formatLocale, {
      day: 'numeric',
      month: 'long',
      timeZone: 'UTC',
    }).format(new Date(hint.expiresAt));
    const handed = pointsExpiryHint({
      ...hint,
      title: t('loyalty-expiry-hint-title'),
      text: t('loyalty-expiry-next', {
        count: hint.points,
        points: formatPoints(hint.points, formatLocale),
        date,
      }),
    });
    if (handed)
      writeItem(localStorage, storageKeys.pointsExpiryHints, JSON.stringify([...sent, hint.key].slice(-20)));
  }, [active, forecast.data, reminders.data, formatLocale, t]);
}

import { useTranslation } from '@/lib/i18n/use-translation';
import { useHostBridge } from '@/lib/native-bridge/host-bridge-state';
import { enableLoyaltyPushNotifications } from '@/lib/native-bridge/native-bridge';
import { usePointsExpiryHint } from './points-expiry-hint';

/**
 * Webview only: offers loyalty push notifications to a member when the host says they are off for
 * loyalty (docs/product/api.md#calls), and says so once the host's flags report them on; with them on,
 * hands the host a points expiry hint when one is due (points-expiry-hint.ts).
 */
export function PushOffer() {
  const { t } = useTranslation();
  const push = useHostBridge((state) => state.push);
  usePointsExpiryHint(Boolean(push?.loyalty && push.enabled));
  if (!push) return null;
  if (push.loyalty && push.enabled)
    return (
      <p className="webview-push card" role="status">
        {t('webview-push-on')}
      </p>
    );
  return (
    <div className="webview-push card">
      <h2 className="webview-push__title">{t('webview-push-title')}</h2>
      <p>{t('webview-push-text')}</p>
      <button
        type="button"
        className="button button--primary"
        onClick={() => enableLoyaltyPushNotifications()}
      >
        {t('webview-push-enable')}
      </button>
    </div>
  );
}

import { ActivityPage } from '@/features/account-security/components/activity-page';
import { AccountSubPageRoute } from './account-sub-page-route';

/** /{COUNTRY}/{lang}/myaccount/security/activity */
export default function SecurityActivityRoute() {
  return <AccountSubPageRoute titleKey="activity-title">{() => <ActivityPage />}</AccountSubPageRoute>;
}

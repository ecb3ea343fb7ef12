import { PasskeysPage } from '@/features/account-passkeys/components/passkeys-page';
import { AccountSubPageRoute } from './account-sub-page-route';

/** /{COUNTRY}/{lang}/myaccount/security/passkeys */
export default function PasskeysRoute() {
  return <AccountSubPageRoute titleKey="passkeys-title">{() => <PasskeysPage />}</AccountSubPageRoute>;
}

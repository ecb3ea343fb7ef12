import { CloseAccount } from '@/features/account-data-rights/components/close-account';
import { AccountSubPageRoute } from './account-sub-page-route';

/** /{COUNTRY}/{lang}/myaccount/close: docs/product/data-rights.md#close-my-account. */
export default function CloseAccountRoute() {
  return <AccountSubPageRoute titleKey="close-title">{() => <CloseAccount />}</AccountSubPageRoute>;
}

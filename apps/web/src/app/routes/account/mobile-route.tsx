import { MobileForm } from '@/features/account-mobile/components/mobile-form';
import { AccountSubPageRoute } from './account-sub-page-route';

/** /{COUNTRY}/{lang}/myaccount/mobile */
export default function MobileRoute() {
  return <AccountSubPageRoute titleKey="mobile-title">{() => <MobileForm />}</AccountSubPageRoute>;
}

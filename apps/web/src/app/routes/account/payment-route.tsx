import { PaymentList } from '@/features/account-payment/components/payment-list';
import { AccountSubPageRoute } from './account-sub-page-route';

/** /{COUNTRY}/{lang}/myaccount/payment */
export default function PaymentRoute() {
  return <AccountSubPageRoute titleKey="payment-list-title">{() => <PaymentList />}</AccountSubPageRoute>;
}

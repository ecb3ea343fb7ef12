import { PaymentProfilesPage } from '@/features/payment-profiles/components/payment-profiles-page';

/** /web/payment/customer/payment-profiles/: target of the webview payment redirect (no login). */
export default function PaymentProfilesRoute() {
  return <PaymentProfilesPage />;
}

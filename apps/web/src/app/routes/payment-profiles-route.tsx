import { PaymentProfilesPage } from '@/features/payment-profiles/components/payment-profiles-page';

/** /web/payment/customer/payment-profiles/: target of the webview payment redirect (no login; the host app catches it). */
export default function PaymentProfilesRoute() {
  return <PaymentProfilesPage />;
}

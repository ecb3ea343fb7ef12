import { LoyaltyDemo } from '@/features/loyalty-demo/components/loyalty-demo';

/** /customer/loyalty-ui/demo: the public showcase (docs/product/addresses-and-routes.md#screens-and-routes: no login required). */
export default function LoyaltyDemoRoute() {
  return <LoyaltyDemo />;
}

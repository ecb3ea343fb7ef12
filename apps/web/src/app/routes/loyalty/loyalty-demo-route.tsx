import { LoyaltyDemo } from '@/features/loyalty-demo/components/loyalty-demo';

/** /customer/loyalty-ui/demo: the public showcase (spec §2: no login required). */
export default function LoyaltyDemoRoute() {
  return <LoyaltyDemo />;
}

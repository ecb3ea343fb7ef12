import { LoyaltyHistory } from '@/features/loyalty-history/components/loyalty-history';

/** `/history`: the points history, paged (docs/product/addresses-and-routes.md#screens-and-routes). */
export default function LoyaltyHistoryRoute() {
  return <LoyaltyHistory />;
}

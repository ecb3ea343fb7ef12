import { TierOverview } from '@/features/loyalty-tiers/components/tier-overview';

/** `/tier-overview`: tiers and their rewards (docs/product/addresses-and-routes.md#screens-and-routes). */
export default function LoyaltyTierOverviewRoute() {
  return <TierOverview />;
}

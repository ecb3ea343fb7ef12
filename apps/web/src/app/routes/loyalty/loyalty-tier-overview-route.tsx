import { TierOverview } from '@/features/loyalty-tiers/components/tier-overview';

/** `/tier-overview`: tiers and their rewards (spec §2). */
export default function LoyaltyTierOverviewRoute() {
  return <TierOverview />;
}

import { useParams } from 'wouter';
import { RewardPage } from '@/features/loyalty-tiers/components/reward-page';

/** `/reward/:id`: one reward, `id` being the reward's slug (docs/product/addresses-and-routes.md#screens-and-routes). */
export default function LoyaltyRewardRoute() {
  const { id = '' } = useParams<{ id: string }>();
  return <RewardPage slug={id} />;
}

import { useParams } from 'wouter';
import { RewardPage } from '@/features/loyalty-tiers/components/reward-page';

/** `/reward/:id`: one reward, `id` being the reward's slug (spec §2). */
export default function LoyaltyRewardRoute() {
  const { id = '' } = useParams<{ id: string }>();
  return <RewardPage slug={id} />;
}

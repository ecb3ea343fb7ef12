import { LoyaltyHistory } from '@/features/loyalty-history/components/loyalty-history';

/** `/history`: the points history, paged (spec §2). */
export default function LoyaltyHistoryRoute() {
  return <LoyaltyHistory />;
}

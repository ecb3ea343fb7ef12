import { LoyaltyEntry } from '@/features/loyalty-join/components/loyalty-entry';

/** `/`: the loyalty entry (spec §2). */
export default function LoyaltyEntryRoute() {
  return <LoyaltyEntry />;
}

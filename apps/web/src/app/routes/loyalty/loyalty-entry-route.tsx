import { LoyaltyEntry } from '@/features/loyalty-join/components/loyalty-entry';

/** `/`: the loyalty entry (docs/product/addresses-and-routes.md#screens-and-routes). */
export default function LoyaltyEntryRoute() {
  return <LoyaltyEntry />;
}

import { LoyaltyStatus } from '@/features/loyalty-status/components/loyalty-status';

/** `/status`: points and tier status (spec §2). Keep it light: it is a first page. */
export default function LoyaltyStatusRoute() {
  return <LoyaltyStatus />;
}

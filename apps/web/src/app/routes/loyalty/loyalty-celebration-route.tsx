import { Celebration } from '@/features/loyalty-join/components/celebration';

/** `/celebration`: shown after joining (spec §2). */
export default function LoyaltyCelebrationRoute() {
  return <Celebration />;
}

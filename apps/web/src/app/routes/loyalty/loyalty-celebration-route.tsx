import { Celebration } from '@/features/loyalty-join/components/celebration';

/** `/celebration`: shown after joining (docs/product/addresses-and-routes.md#screens-and-routes). */
export default function LoyaltyCelebrationRoute() {
  return <Celebration />;
}

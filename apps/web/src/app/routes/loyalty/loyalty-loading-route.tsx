import { LoadingScreen } from '@/features/loyalty-join/components/loading-screen';

/** `/loading`: the loading screen (docs/product/addresses-and-routes.md#screens-and-routes). */
export default function LoyaltyLoadingRoute() {
  return <LoadingScreen />;
}

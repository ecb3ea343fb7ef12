import { LoadingScreen } from '@/features/loyalty-join/components/loading-screen';

/** `/loading`: the loading screen (spec §2). */
export default function LoyaltyLoadingRoute() {
  return <LoadingScreen />;
}

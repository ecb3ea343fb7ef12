import { Onboarding } from '@/features/loyalty-join/components/onboarding';

/** `/onboarding`: the programme for customers who have not joined (docs/product/addresses-and-routes.md#screens-and-routes). */
export default function LoyaltyOnboardingRoute() {
  return <Onboarding />;
}

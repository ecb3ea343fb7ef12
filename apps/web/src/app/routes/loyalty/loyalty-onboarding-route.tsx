import { Onboarding } from '@/features/loyalty-join/components/onboarding';

/** `/onboarding`: the programme for customers who have not joined (spec §2). */
export default function LoyaltyOnboardingRoute() {
  return <Onboarding />;
}

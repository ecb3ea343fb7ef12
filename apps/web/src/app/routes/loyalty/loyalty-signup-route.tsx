import { Signup } from '@/features/loyalty-join/components/signup';

/** `/signup`: join the programme (spec §2). */
export default function LoyaltySignupRoute() {
  return <Signup />;
}

import { Signup } from '@/features/loyalty-join/components/signup';

/** `/signup`: join the programme (docs/product/addresses-and-routes.md#screens-and-routes). */
export default function LoyaltySignupRoute() {
  return <Signup />;
}
